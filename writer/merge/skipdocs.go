package merge

// mergeSkipDocs returns the pass's documents that skipped a
// token of field: each source's surviving ones, renumbered as the pass
// numbers them (bases). A source whose list is unknown (format 8 or older,
// with skipped tokens) makes the pass's unknown.
func mergeSkipDocs(srcs []*source, bases []uint32, field string) (docs []uint32, unknown bool) {
	for i, s := range srcs {
		m, ok := s.metas[field]
		if !ok || s.survivors() == 0 {
			continue
		}
		if !m.SkipDocsKnown {
			return nil, true
		}
		for _, d := range m.SkipDocs {
			switch {
			case s.del == nil:
				docs = append(docs, bases[i]+d)
			case !s.del.has(d):
				docs = append(docs, bases[i]+d-s.del.rank(d))
			}
		}
	}
	return docs, false
}
