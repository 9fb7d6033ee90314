1i #ifdef __CUEMU__\n#error "this code is for GPUs only"\n#endif
s/sm.id = STAGE == CHAINED_BLOCKIDX ? blockIdx.x : take_ticket(st.next_tile);/sm.id = blockIdx.x; \/* the block-order bug: a GPU's in-order start hides it *\//
