package index

// kthLargest returns the k-th largest of vals[i] for i in at (all of vals
// when at is nil), 0 when they hold fewer than k values >= 0 (negative
// ones are not counted); buf is its room.
func kthLargest(vals []float64, at []uint32, k int, buf *[]float64) float64 {
	if k <= 0 {
		return 0
	}
	h := kthHeap{top: (*buf)[:0], k: k}
	if at == nil {
		for _, v := range vals {
			h.offer(v)
		}
	} else {
		for _, i := range at {
			h.offer(vals[i])
		}
	}
	*buf = h.top[:0]
	if len(h.top) < k {
		return 0
	}
	return h.top[0]
}

// kthHeap is a min-heap of the k largest values offered so far: top[0] is
// the k-th largest once k were offered.
type kthHeap struct {
	top []float64
	k   int
}

func (h *kthHeap) offer(v float64) {
	top := h.top
	switch {
	case v < 0:
		return
	case len(top) < h.k:
		top = append(top, v)
		for i := len(top) - 1; i > 0; {
			pi := (i - 1) / 2
			if top[pi] <= top[i] {
				break
			}
			top[i], top[pi] = top[pi], top[i]
			i = pi
		}
		h.top = top
		return
	case v <= top[0]:
		return
	}
	top[0] = v
	for i := 0; ; {
		l := 2*i + 1
		if l >= h.k {
			break
		}
		m := l
		if r := l + 1; r < h.k && top[r] < top[l] {
			m = r
		}
		if top[i] <= top[m] {
			break
		}
		top[i], top[m] = top[m], top[i]
		i = m
	}
}
