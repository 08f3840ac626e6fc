package capture

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/snii-go/snii/internal/errs"
)

// FuzzCaptureReader: any input either reads as a capture or fails with an error of
// kind Corrupt or Version; it never panics and never allocates past MaxRecord.
func FuzzCaptureReader(f *testing.F) {
	f.Add(writeSample(f, false, sampleWindows(4), true))
	f.Add(writeSample(f, true, sampleWindows(6), false))
	f.Add(appendHeader(nil, false))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data), ReaderOptions{MaxRecord: 1 << 16})
		if err != nil {
			if !errors.Is(err, errs.Corrupt) && !errors.Is(err, errs.Version) {
				t.Fatalf("header: %v is neither Corrupt nor Version", err)
			}
			return
		}
		for {
			w, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				if !errors.Is(err, errs.Corrupt) {
					t.Fatalf("%v is not Corrupt", err)
				}
				return
			}
			if w.Index < 0 || w.Index >= len(r.Indexes()) || len(w.Plain) == 0 {
				t.Fatalf("bad window %+v", w)
			}
		}
	})
}
