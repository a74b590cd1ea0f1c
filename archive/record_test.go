package archive

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackedBefore: the records in testdata/packed were packed by
// record.go as it was when issue 38 was done (formats 0, 1 and 2; the
// four games, and Counting, which format 1's dictionary does not name),
// and are never written again: each must still unpack to its text
// (NAME.rec beside NAME.formatN; a format 2 record's move numbers are the
// lines of NAME.tokens). A change to a dictionary or to the tag numbers
// of a format fails here; it needs a new format byte instead. Packed
// again today, each text comes back the same, and Counting's in format 1
// as the others are.
func TestPackedBefore(t *testing.T) {
	files, err := filepath.Glob("testdata/packed/*.format*")
	if err != nil || len(files) < 8 {
		t.Fatalf("%d packed records (%v)", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			base := strings.TrimSuffix(f, filepath.Ext(f))
			packed, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(base + ".rec")
			if err != nil {
				t.Fatal(err)
			}
			var tokens func([]uint32) ([]string, error)
			if strings.HasSuffix(f, ".format2") {
				b, err := os.ReadFile(base + ".tokens")
				if err != nil {
					t.Fatal(err)
				}
				byNum := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
				tokens = func(ids []uint32) ([]string, error) {
					out := make([]string, len(ids))
					for i, id := range ids {
						out[i] = byNum[id-1]
					}
					return out, nil
				}
			}
			if want := int(f[len(f)-1] - '0'); int(packed[0]) != want {
				t.Fatalf("format byte %d, want %d", packed[0], want)
			}
			got, err := unpackRecord(packed, tokens)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("unpacked:\n%s\n(%v)\nwant:\n%s", got, err, want)
			}
			again := packRecord(want)
			if got, err := unpackRecord(again, nil); err != nil || !bytes.Equal(got, want) {
				t.Errorf("packed again: %q, %v", got, err)
			}
			if len(want) > 100 && (again[0] != recordDict1 || len(again) >= len(want)) {
				t.Errorf("packed again in format %d, %d bytes of %d", again[0], len(again), len(want))
			}
		})
	}
}
