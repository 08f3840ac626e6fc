package merge_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
	"github.com/snii-go/snii/writer/merge"
)

// Merge two segments into one, dropping a deleted document. The output
// numbers the documents of the first source first, then those of the
// second, each in its own order, without the deleted ones.
func Example() {
	dir, err := os.MkdirTemp("", "snii-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	build := func(name string, lines ...string) string {
		path := filepath.Join(dir, name)
		w, err := writer.Create(context.Background(), path, writer.DefaultOptions("text"))
		if err != nil {
			log.Fatal(err)
		}
		for _, l := range lines {
			if _, err := w.Add(writer.Doc("text", l)); err != nil {
				log.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			log.Fatal(err)
		}
		return path
	}
	a := build("a.snii", "disk full on /var", "user login ok")
	b := build("b.snii", "disk quota exceeded", "disk full again", "user logout")

	out := filepath.Join(dir, "merged.snii")
	st, err := merge.Merge(context.Background(), out, []merge.Source{
		{Path: a},
		{Path: b, Deleted: roaring.BitmapOf(0)}, // drop "disk quota exceeded"
	}, merge.Options{}) // zero Options: keep the sources' codec policy and zstd level
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d docs in, %d deleted, %d out\n", st.DocsIn, st.Deleted, st.Docs)

	seg, err := reader.Open(out, reader.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer seg.Close()
	docs, err := seg.Docs(context.Background(), reader.Phrase("text", "disk", "full"), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(`"disk full":`, docs)
	// Output:
	// 5 docs in, 1 deleted, 4 out
	// "disk full": [0 2]
}
