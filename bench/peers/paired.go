package peers

import (
	"fmt"
	"path/filepath"
	"slices"
)

// pairedSetup is what a snii-versus-Lucene comparison of one query set needs
// (RunSloppy, RunPatterns): the documents, a work folder and the timing
// settings.
type pairedSetup struct {
	CompareOptions
	Docs []string
	Logf func(format string, args ...any)
}

// pairedResult is what runPaired measured: per query the hit count, and per
// query and engine (0 snii, 1 Lucene) the wall and thread CPU time of a call
// in each cycle.
type pairedResult struct {
	Hits       []int
	Mismatches []Mismatch
	Wall, CPU  [][2][]float64
}

// PairedTimes are one query's median time per call (ns) in snii and in
// Lucene over interleaved cycles and the median of the per-cycle ratios
// snii/Lucene; the same for the thread CPU time of the calls (less sensitive
// to the machine's load than the wall time).
type PairedTimes struct {
	SniiNs, LuceneNs, Ratio          float64
	SniiCPUNs, LuceneCPUNs, CPURatio float64
}

// pairedTimes returns the PairedTimes of wall and thread CPU samples taken in
// the same cycles (per engine: 0 snii, 1 Lucene).
func pairedTimes(wall, cpu [2][]float64) PairedTimes {
	var t PairedTimes
	t.SniiNs, t.LuceneNs, t.Ratio = pairedRatio(wall)
	t.SniiCPUNs, t.LuceneCPUNs, t.CPURatio = pairedRatio(cpu)
	return t
}

// row returns query i's hit count and, when the queries were timed, its
// PairedTimes.
func (r *pairedResult) row(i int) (hits int, t PairedTimes) {
	if r.Wall != nil {
		t = pairedTimes(r.Wall[i], r.CPU[i])
	}
	return r.Hits[i], t
}

// runPaired builds a snii segment (default options) and a Lucene index of
// s.Docs, checks the doc ids of every query: both engines against want[i]
// when want is set (an oracle), else snii against Lucene. With no mismatch
// and s.Cycles > 0 it warms Lucene up, calibrates each engine's calls per
// sample and times both in s.Cycles interleaved cycles (snii Count, Lucene
// TotalHitCountCollector; the order alternates every cycle), checking every
// count. env gets the Java version and the load around the cycles.
func runPaired(s pairedSetup, qs []*Query, want [][]uint32, env *Env) (*pairedResult, error) {
	docsPath := filepath.Join(s.WorkDir, "docs.bin")
	if err := WriteDocsFile(docsPath, s.Docs); err != nil {
		return nil, err
	}
	s.Docs = nil
	lu, err := SetupLucene(s.LuceneSrc, s.LuceneJars, s.WorkDir)
	if err != nil {
		return nil, err
	}
	env.Java = lu.Version
	segPath, luDir := filepath.Join(s.WorkDir, "snii.snii"), filepath.Join(s.WorkDir, "lucene")
	if _, err := BuildSnii(EngineSnii, docsPath, segPath, -1, 0); err != nil {
		return nil, err
	}
	if _, err := lu.Build(docsPath, luDir); err != nil {
		return nil, err
	}
	sn, err := OpenSnii(EngineSnii, segPath, qs)
	if err != nil {
		return nil, err
	}
	defer sn.Close()
	le, err := lu.Serve(luDir, s.WorkDir, qs)
	if err != nil {
		return nil, err
	}
	defer le.Close()
	engines := []Engine{sn, le}

	res := &pairedResult{Hits: make([]int, len(qs))}
	for i, q := range qs {
		lids, err := le.Docs(i)
		if err != nil {
			return nil, err
		}
		ref := lids
		if want != nil {
			ref = want[i]
			if !slices.Equal(lids, ref) {
				res.Mismatches = append(res.Mismatches, Mismatch{Engine: "lucene", Query: q, Want: ref, Got: lids, Details: diffIDs(ref, lids)})
			}
		}
		got, err := sn.Docs(i)
		if err != nil || !slices.Equal(got, ref) {
			res.Mismatches = append(res.Mismatches, Mismatch{Engine: EngineSnii, Query: q, Want: ref, Got: got, Err: err, Details: diffIDs(ref, got)})
		}
		res.Hits[i] = len(ref)
	}
	s.Logf("hit sets: %d differences over %d queries", len(res.Mismatches), len(qs))
	if len(res.Mismatches) > 0 || s.Cycles <= 0 {
		return res, nil
	}

	s.Logf("lucene: JVM warm-up %s", s.LuceneWarmup)
	if err := le.(*luceneEngine).Warmup(s.LuceneWarmup); err != nil {
		return nil, err
	}
	reps := make([][2]int, len(qs))
	for i := range qs {
		for k, e := range engines {
			if reps[i][k], err = calibrate(e, i, s.MinSample, s.MaxReps); err != nil {
				return nil, err
			}
		}
	}
	env.LoadBefore = LoadAvg()
	res.Wall = make([][2][]float64, len(qs))
	res.CPU = make([][2][]float64, len(qs))
	for cy := 0; cy < s.Cycles; cy++ {
		for i := range qs {
			for j := range engines {
				k := j
				if cy%2 == 1 {
					k = len(engines) - 1 - j
				}
				n, t, err := engines[k].Run(i, reps[i][k])
				if err != nil {
					return nil, err
				}
				if n != res.Hits[i] {
					return nil, fmt.Errorf("cycle %d: %s %s counted %d, want %d", cy, engines[k].Name(), qs[i], n, res.Hits[i])
				}
				res.Wall[i][k] = append(res.Wall[i][k], float64(t.Wall.Nanoseconds())/float64(reps[i][k]))
				res.CPU[i][k] = append(res.CPU[i][k], float64(t.CPU.Nanoseconds())/float64(reps[i][k]))
			}
		}
		s.Logf("cycle %d/%d done", cy+1, s.Cycles)
	}
	env.LoadAfter = LoadAvg()
	return res, nil
}
