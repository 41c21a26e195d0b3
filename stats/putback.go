package stats

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
)

// byPutBack makes m model KeptByPutBack: the clean rounds' noise (the
// comparison's rounds not far out, their median s over campaigns like
// this one), the far rounds' shift and spread from every far round the
// campaign's comparisons saw, kept or trimmed, and the chance that k of
// f stay in (PutBackChance's draws at those sizes). A campaign that
// saw no far round models each as trimmed (no size to draw from), as
// KeptAsSeen does.
//
// Under KeptByPutBackSpread the clean noise's median is taken at the
// degrees of freedom its choice leaves it (cleanDF).
func (m *rounds) byPutBack(r Robust, all []Stalls, spread bool) {
	if s := r.Stalls; s.DF >= 1 && s.Sigma >= 0 && !math.IsNaN(s.Sigma) {
		df := s.DF
		if spread && s.diffs != nil {
			df = cleanDF(s.diffs, df)
		}
		m.sigma = s.Sigma * math.Sqrt2 / medianS(df)
	}
	var sizes []float64
	for _, s := range all {
		sizes = append(sizes, s.Far...)
	}
	m.shift, m.rms = 0, 0
	if len(sizes) == 0 {
		m.putBack = func(int) keptFar { return keptFar{} }
		return
	}
	var sum, sq float64
	for _, a := range sizes {
		sum += a
		sq += a * a
	}
	m.shift, m.rms = sum/float64(len(sizes)), math.Sqrt(sq/float64(len(sizes)))
	memo := map[int]keptFar{}
	sd, n := m.sigma, m.n
	m.putBack = func(f int) keptFar {
		p, ok := memo[f]
		if !ok {
			p = putBackDrawsCached(sizes, sd, n, f)
			memo[f] = p
		}
		return p
	}
}

// keptFar is what PutBackChance's draws say of f far rounds: the chance
// that k of them stay in (all of them: byK[f]), and the sizes that stay in
// when k do (the nearer sizes stay in more often).
type keptFar struct {
	// byK is the chance that k of the f stay in, and shift and rms the
	// mean and root mean square of the sizes that stay in then, by k.
	byK, shift, rms []float64
	// rho is, by k, the clean rounds' mean sample variance over sd² in
	// the draws that kept k (1 where no draw did): the trimming keeps far
	// rounds where the clean ones happen to be noisy.
	rho []float64
}

// putBackN is how many seeded draws PutBackChance makes at most: its
// chance within about 2.5 points (one standard error at a chance of a
// half); it stops after 100 when they all agree.
const putBackN = 400

// PutBackChance is the chance that a comparison of n rounds whose clean
// differences have standard deviation sd keeps all f of its far rounds in
// (TrimOneByOne puts them back, or never takes them as candidates), among
// the draws it does not refuse: each far round is off by a size drawn
// from sizes, on either side alike. It is found by running the trimming
// itself on seeded draws, since its candidates come from a robust scale,
// its confirmation from the fit of the rounds kept and its put-back one
// round at a time, whose joint law has no closed form; the seed is n and
// f, so one comparison's MDE is the same each time it is computed. 0 when
// there is no size or no far round, 1 when every draw is refused.
func PutBackChance(sizes []float64, sd float64, n, f int) float64 {
	if kf := putBackDraws(sizes, sd, n, f); f < len(kf.byK) {
		return kf.byK[f]
	}
	return 0
}

// putBackDraws are PutBackChance's draws.
// putBackCache holds putBackDraws' answers across models: the planner
// models every candidate schedule of one scenario with the same sizes and
// noise, and check and the index analyse the same records again. The
// draws are seeded by n and f, so an answer is the same whenever its
// arguments are: the cache changes no figure, only the time. It is
// emptied when it holds putBackCacheMax answers.
var putBackCache = struct {
	sync.Mutex
	m map[putBackKey]putBackEntry
}{m: map[putBackKey]putBackEntry{}}

// putBackEntry is an answer and the sizes it was drawn from.
type putBackEntry struct {
	sizes []float64
	kf    keptFar
}

const putBackCacheMax = 1 << 14

// putBackKey names putBackDraws' arguments: n, f, sd's bits and the
// sizes' (their count and a hash of their bits; equal sizes are also
// compared whole on a hit).
type putBackKey struct {
	n, f, count int
	sd, hash    uint64
}

var putBackSeed = maphash.MakeSeed()

// putBackDrawsCached is putBackDraws, answered from putBackCache when
// the same arguments were asked before.
func putBackDrawsCached(sizes []float64, sd float64, n, f int) keptFar {
	var h maphash.Hash
	h.SetSeed(putBackSeed)
	var b [8]byte
	for _, a := range sizes {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(a))
		h.Write(b[:])
	}
	key := putBackKey{n: n, f: f, count: len(sizes), sd: math.Float64bits(sd), hash: h.Sum64()}
	putBackCache.Lock()
	e, ok := putBackCache.m[key]
	putBackCache.Unlock()
	if ok && slices.Equal(e.sizes, sizes) {
		return e.kf
	}
	kf := putBackDraws(sizes, sd, n, f)
	putBackCache.Lock()
	if len(putBackCache.m) >= putBackCacheMax {
		clear(putBackCache.m)
	}
	putBackCache.m[key] = putBackEntry{sizes: slices.Clone(sizes), kf: kf}
	putBackCache.Unlock()
	return kf
}

func putBackDraws(sizes []float64, sd float64, n, f int) keptFar {
	if len(sizes) == 0 || f <= 0 || f > n {
		return keptFar{}
	}
	rng := rand.New(rand.NewPCG(uint64(n), uint64(f)))
	d := make([]float64, n)
	slow := make([]bool, n)
	allowed := TrimOneByOne.allowed(n)
	counts := make([]int, f+1)
	ok := 0
	sum, sq, vs := make([]float64, f+1), make([]float64, f+1), make([]float64, f+1)
	clean := make([]bool, n-f)
	for i := range clean {
		clean[i] = true
	}
	abs := make([]float64, f)
	for draw := range putBackN {
		// A hundred draws that all keep them, or none, settle it: the
		// chance is within a few points of 1 or 0.
		if draw > 0 && draw%100 == 0 && (counts[0] == ok || counts[f] == ok) {
			break
		}
		for i := range d {
			d[i], slow[i] = sd*rng.NormFloat64(), false
		}
		for i := range f {
			a := sizes[rng.IntN(len(sizes))]
			abs[i] = a
			if rng.IntN(2) == 0 {
				d[i] -= a
				slow[i] = true
			} else {
				d[i] += a
			}
		}
		keep, farRef, farArm := trimRounds(d, slow, TrimOneByOne)
		if farRef > allowed || farArm > allowed {
			continue
		}
		ok++
		k := 0
		var s1, s2 float64
		for i, a := range abs {
			if keep[i] {
				k++
				s1 += a
				s2 += a * a
			}
		}
		counts[k]++
		if n-f >= 2 && sd > 0 {
			_, cs := meanSD(d[f:], clean)
			q := cs / sd // before squaring: sd² may underflow where sd does not
			vs[k] += q * q
		} else {
			vs[k]++
		}
		sum[k] += s1
		sq[k] += s2
	}
	out := keptFar{byK: make([]float64, f+1), shift: make([]float64, f+1), rms: make([]float64, f+1), rho: make([]float64, f+1)}
	for k := range out.rho {
		out.rho[k] = 1
	}
	if ok == 0 { // every draw refused: all kept, at the sizes as they come
		var s1, s2 float64
		for _, a := range sizes {
			s1 += a
			s2 += a * a
		}
		n := float64(len(sizes))
		out.byK[f], out.shift[f], out.rms[f] = 1, s1/n, math.Sqrt(s2/n)
		return out
	}
	for k, c := range counts {
		out.byK[k] = float64(c) / float64(ok)
		if c > 0 && sd > 0 {
			out.rho[k] = vs[k] / float64(c)
		}
		if k > 0 && c > 0 {
			m := float64(k * c)
			out.shift[k], out.rms[k] = sum[k]/m, math.Sqrt(sq[k]/m)
		}
	}
	return out
}
