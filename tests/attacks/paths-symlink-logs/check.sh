# Nothing was written through the links: no file appeared outside.
left=$(ls "$scratch" 2>/dev/null)
[ -z "$left" ] || { echo "the grader wrote through the student's links: $left"; exit 1; }
