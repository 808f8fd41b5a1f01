# Model of ldmatrix .x4 .b16 on 32-bit data vs the LDS fragment reads in SplitTile::mul.
for w in range(4):
    r0, c0 = 16 * (w // 2), 16 * (w & 1)
    for u in range(0, 32, 8):
        # row addresses given by each lane: (row, col) of P and Q
        addrP = {}; addrQ = {}
        for lane in range(32):
            mi, rr = lane // 8, lane % 8
            addrP[lane] = (r0 + rr + 8 * (mi & 1), u + 4 * (mi >> 1))
            addrQ[lane] = (c0 + rr + 8 * (mi >> 1), u + 4 * (mi & 1))
        for lane in range(32):
            g, t = lane // 4, lane % 4
            # ldmatrix: r[i] = word (lane%4) of row (lane/4) of matrix i; matrix i's row j address from lane 8i+j
            ra = [(addrP[8 * i + lane // 4][0], addrP[8 * i + lane // 4][1] + lane % 4) for i in range(4)]
            rb = [(addrQ[8 * i + lane // 4][0], addrQ[8 * i + lane // 4][1] + lane % 4) for i in range(4)]
            pa = [(r0 + g, u + t), (r0 + g + 8, u + t), (r0 + g, u + t + 4), (r0 + g + 8, u + t + 4)]
            qb = [(c0 + g, u + t), (c0 + g, u + t + 4), (c0 + 8 + g, u + t), (c0 + 8 + g, u + t + 4)]
            assert ra == pa, (w, u, lane, ra, pa)
            assert rb == qb, (w, u, lane, rb, qb)
# bank check: pitch 36 words, each 8-row phase reads 8 rows x 4 words
for base_col in (0, 4, 8, 28):
    banks = sorted(((r * 36 + base_col + k) % 32) for r in range(8) for k in range(4))
    assert banks == list(range(32)), banks
print("ldsm mapping and banks ok")
