package capture

import (
	"bufio"
	"encoding/binary"
	"io"
	"sync"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/limits"
)

// WriterOptions configure a Writer.
type WriterOptions struct {
	// All keeps the fast-path windows too (default false: eligible windows only).
	All bool
}

// Writer writes a capture file. Its methods are safe for concurrent use; the
// windows of one field keep the order of the calls that add them.
type Writer struct {
	mu      sync.Mutex
	sub     prx.Window
	bw      *bufio.Writer
	all     bool
	names   map[string]int
	infos   []IndexInfo
	records int64
	windows int64
	buf     []byte
	plain   []byte // Encoded's plain payload buffer
	err     error  // sticky: the first write error
	closed  bool
}

// NewWriter writes the header to w and returns a Writer. Close writes the end
// record and flushes; it does not close w.
func NewWriter(w io.Writer, o WriterOptions) (*Writer, error) {
	cw := &Writer{bw: bufio.NewWriterSize(w, 256<<10), all: o.All, names: map[string]int{}}
	if _, err := cw.bw.Write(appendHeader(nil, o.All)); err != nil {
		return nil, err
	}
	return cw, nil
}

// All reports whether the writer keeps fast-path windows.
func (w *Writer) All() bool { return w.all }

// AddIndex declares a field and returns its ordinal. Declaring a name
// twice is an invalid-argument error.
func (w *Writer) AddIndex(info IndexInfo) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.addIndex(info)
}

func (w *Writer) addIndex(info IndexInfo) (int, error) {
	if err := w.usable(); err != nil {
		return 0, err
	}
	if _, ok := w.names[info.Name]; ok {
		return 0, errs.Invalidf("capture: index %q declared twice", info.Name)
	}
	if len(w.infos) >= MaxIndexes {
		return 0, errs.Limitf("capture: more than %d indexes", MaxIndexes)
	}
	if info.Known {
		if err := info.Policy.Validate(); err != nil {
			return 0, errs.Invalidf("capture: index %q: %v", info.Name, err)
		}
		if err := info.Limits.Validate(); err != nil {
			return 0, errs.Invalidf("capture: index %q: %v", info.Name, err)
		}
	} else {
		info.Policy, info.ZstdLevel, info.Limits = budget.Policy{}, 0, limits.Limits{}
	}
	info.Recorded = nil
	if err := w.record(appendIndexBody(w.buf[:0], &info)); err != nil {
		return 0, err
	}
	w.names[info.Name] = len(w.infos)
	w.infos = append(w.infos, info)
	return len(w.infos) - 1, nil
}

// Index returns the ordinal of the field called name, declaring it with unknown
// settings when it was not declared yet.
func (w *Writer) Index(name string) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if i, ok := w.names[name]; ok {
		return i, nil
	}
	return w.addIndex(IndexInfo{Name: name})
}

// Window adds one window of index (an ordinal from AddIndex or Index): its plain
// payload and whether it is eligible. Without All, a window that is not eligible
// is dropped (and nil returned). The plain payload must start with its doc count.
func (w *Writer) Window(index int, eligible bool, plain []byte) error {
	if !eligible && !w.all {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.windowLocked(index, eligible, plain)
}

// Encoded adds a window the way an encoder hook sees it: the window and the frame
// prx.Encoder made of it, one record per unit (the plain payload of the unit's
// documents, eligible as the unit). Without All, a unit that is not eligible is
// dropped before its plain payload is built. An invalid window, or a unit outside
// it, is an invalid-argument error.
func (w *Writer) Encoded(index int, win *prx.Window, f prx.Frame) error {
	if err := win.Validate(); err != nil {
		return errs.Invalidf("capture: invalid window (%d offsets, %d positions): %v", len(win.Offsets), len(win.Positions), err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, u := range f.Units {
		if u.Lo < 0 || u.Lo >= u.Hi || u.Hi > win.Docs() {
			return errs.Invalidf("capture: unit of docs %d..%d in a window of %d docs", u.Lo, u.Hi, win.Docs())
		}
		if !u.Eligible && !w.all {
			continue
		}
		w.plain = prx.AppendPlain(w.plain[:0], win.Slice(u.Lo, u.Hi, &w.sub))
		if len(w.plain) == 0 {
			return errs.Invalidf("capture: invalid window (%d offsets, %d positions)", len(win.Offsets), len(win.Positions))
		}
		if err := w.windowLocked(index, u.Eligible, w.plain); err != nil {
			return err
		}
	}
	return nil
}

// windowLocked writes a window record; w.mu is held.
func (w *Writer) windowLocked(index int, eligible bool, plain []byte) error {
	docs, _, ok := bitpack.ReadUvarint(plain, 0)
	if !ok {
		return errs.Invalidf("capture: window of %d bytes does not start with a doc count", len(plain))
	}
	if err := w.usable(); err != nil {
		return err
	}
	if index < 0 || index >= len(w.infos) {
		return errs.Invalidf("capture: window of undeclared index %d", index)
	}
	var flags byte
	if eligible {
		flags |= FlagEligible
	}
	b := append(w.buf[:0], kindWindow)
	b = binary.AppendUvarint(b, uint64(index))
	b = append(b, flags)
	b = binary.AppendUvarint(b, docs)
	if len(b)+len(plain) > DefaultMaxRecord {
		return errs.Limitf("capture: window of index %q: plain payload of %d bytes", w.infos[index].Name, len(plain))
	}
	w.buf = b
	if err := w.recordParts(b, plain); err != nil {
		return err
	}
	w.windows++
	return nil
}

// SetOutcome records what the encoder of index recorded for the whole field.
func (w *Writer) SetOutcome(index int, o Outcome) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	if index < 0 || index >= len(w.infos) {
		return errs.Invalidf("capture: outcome of undeclared index %d", index)
	}
	for _, v := range append(append([]int64{o.Budget.Eligible, o.Budget.SumSmallest, o.Budget.Traded,
		o.Budget.TradedCount, int64(o.Budget.FinalShare), o.Budget.Allowance}, o.Windows[:]...), o.Bytes[:]...) {
		if v < 0 {
			return errs.Invalidf("capture: outcome of index %q has a negative count", w.infos[index].Name)
		}
	}
	return w.record(appendOutcomeBody(w.buf[:0], index, &o))
}

// Windows returns the number of windows written so far.
func (w *Writer) Windows() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.windows
}

// Close writes the end record and flushes. It does not close the underlying
// writer. Calling Close again returns the first error, or nil.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.err
	}
	if w.err != nil {
		w.closed = true
		return w.err
	}
	b := append(w.buf[:0], kindEnd)
	b = binary.AppendUvarint(b, uint64(w.records))
	b = binary.AppendUvarint(b, uint64(w.windows))
	if err := w.record(b); err != nil {
		w.closed = true
		return err
	}
	w.closed = true
	if err := w.bw.Flush(); err != nil {
		w.err = err
	}
	return w.err
}

func (w *Writer) usable() error {
	if w.closed {
		return errs.Closed
	}
	return w.err
}

func (w *Writer) record(body []byte) error {
	w.buf = body
	return w.recordParts(body, nil)
}

// recordParts writes one record whose body is head followed by tail.
func (w *Writer) recordParts(head, tail []byte) error {
	var lenb [4]byte
	binary.LittleEndian.PutUint32(lenb[:], uint32(len(head)+len(tail)))
	sum := crc32Update(crc32Update(0, head), tail)
	var crcb [4]byte
	binary.LittleEndian.PutUint32(crcb[:], sum)
	for _, p := range [][]byte{lenb[:], head, tail, crcb[:]} {
		if _, err := w.bw.Write(p); err != nil {
			w.err = err
			return err
		}
	}
	w.records++
	return nil
}
