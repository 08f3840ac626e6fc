package s3_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/internal/testkit/s3test"
	"github.com/snii-go/snii/objstore/s3"
	"github.com/snii-go/snii/reader"
)

// TestRecordsOneRound: the records of a page of hits of a cold S3 segment
// come in one round, byte-equal to the local segment's.
func TestRecordsOneRound(t *testing.T) {
	srv := s3test.Shared(t)
	ctx := t.Context()
	docs := oracle.Generate(77, oracle.GenOptions{Docs: 6000})
	data := buildSegment(t, docs)
	srv.MakeBucket(t, "records")
	srv.Put(t, "records", "seg.snii", data)
	p := filepath.Join(t.TempDir(), "local.snii")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	local, err := reader.Open(p, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	if st, ok := local.Store(); !ok || st.Blocks < 20 {
		t.Fatalf("store %+v: want a store of at least 20 blocks", st)
	}
	r := rand.New(rand.NewPCG(5, 5))
	for round := 0; round < 3; round++ {
		ids := make([]uint32, 20)
		for i := range ids {
			ids[i] = uint32(r.IntN(len(docs)))
		}
		cl := client(t, srv.Endpoint, s3.Config{}, nil)
		seg, err := cl.OpenSegment(ctx, "records", "seg.snii", reader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		before := s3.ObjectOf(seg).Stats()
		k := 0
		err = seg.Records(ctx, ids, func(id uint32, rec []byte) error {
			want, err := local.Record(ctx, id)
			if err != nil {
				return err
			}
			if id != ids[k] || !bytes.Equal(rec, want) {
				t.Errorf("call %d: record of %d differs from the local segment's (want id %d)", k, id, ids[k])
			}
			k++
			return nil
		})
		after := s3.ObjectOf(seg).Stats()
		seg.Close()
		if err != nil || k != len(ids) {
			t.Fatalf("%d of %d records: %v", k, len(ids), err)
		}
		if rounds := after.Rounds - before.Rounds; rounds != 1 {
			t.Errorf("20 records: %d rounds (%+v), want 1", rounds, after)
		}
	}
}
