package writer

// Test-only access to the fault injection hook (this file is compiled only
// into the package's tests).

// Faults configures failures injected into one build.
type Faults struct {
	FailAfter  int64 // fail the write that takes the bytes written to all files past this (< 0: never)
	FailSync   bool
	FailRename bool
	CorruptRun bool
	SpoolLimit int // > 0: spool the dict region, doc spans and store blocks to temp files beyond this many bytes

	PairNoFwd   bool   // count pairs from the postings alone (no forward index)
	PairRecords bool   // count a forward index's pairs through the record sorter, not the buckets
	PairWide    bool   // bucket records take 8 bytes even when 4 would do
	PairSplit   int    // > 0: 4-byte bucket records keep this many fewer bits of the doc
	PairNoBits  bool   // no bitmaps of terms: co reads every term's docs back (a dense first term gets a scratch bitmap)
	PairBucket  int64  // > 0: the pair buckets' memory share in bytes
	PairEntries int    // > 0: the pair entries kept in memory, in bytes
	PairTokens  uint64 // > 0: the default minimum pair df's tokens per unit of df (else 65536)
	Serial      bool   // no second goroutine for Add's batches and the prx encoder (as with GOMAXPROCS 1)
	SyncDoc     int64  // > 0: the size (value bytes plus 100 a value) from which Add analyzes a document itself
	f           *faults
}

// WithFaults returns o with the faults armed; read the outcome with Fired.
func WithFaults(o Options, fl *Faults) Options {
	fl.f = &faults{failAfter: fl.FailAfter, failSync: fl.FailSync, failRename: fl.FailRename, corruptRun: fl.CorruptRun, spoolLimit: fl.SpoolLimit,
		pairNoFwd: fl.PairNoFwd, pairRecords: fl.PairRecords, pairWide: fl.PairWide, pairSplit: fl.PairSplit, pairNoBits: fl.PairNoBits, pairBucket: fl.PairBucket, pairEntries: fl.PairEntries,
		pairTokens: fl.PairTokens, serial: fl.Serial, syncDoc: fl.SyncDoc}
	o.faults = fl.f
	return o
}

// BatchReserve is the memory the term buffers leave to Add's batches under
// memoryLimit.
func BatchReserve(memoryLimit int64) int64 { return batchReserve(memoryLimit) }

// Fired reports whether an injected fault fired.
func (fl *Faults) Fired() bool { return fl.f.failed }

// PairSplits returns the pair countings whose bucket records left the docs'
// high parts to their buckets' starts.
func (fl *Faults) PairSplits() int { return fl.f.pairSplits }

// PairPaths returns how many fields had their pairs counted from a forward
// index's buckets, from its records, and from the postings alone.
func (fl *Faults) PairPaths() [3]int { return fl.f.pairPaths }

// AsyncDocs returns the documents analyzed on the analysis goroutine.
func (fl *Faults) AsyncDocs() int { return fl.f.asyncDocs }

// Written returns the bytes written to all files of the build.
func (fl *Faults) Written() int64 { return fl.f.written }

// PairFills returns the passes over forward indexes that filled pair
// buckets.
func (fl *Faults) PairFills() int { return fl.f.pairFills }

// PairEntryFiles returns how many fields kept their pair candidates'
// entries in a temp file.
func (fl *Faults) PairEntryFiles() int { return fl.f.pairEntryFile }

// PairFwdFiles returns how many indexes had their forward index go to a temp
// file.
func (fl *Faults) PairFwdFiles() int { return fl.f.pairFwdFile }

// StoresNorms is FieldOptions.storesNorms.
func StoresNorms(f FieldOptions) bool { return f.storesNorms() }
