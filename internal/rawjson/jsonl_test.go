package rawjson_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/rawjson"
)

func lines(t *testing.T, path string, maxLine int) (got []string, next, size int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	next, err = rawjson.ReadLines(f, 0, info.Size(), maxLine, func(l rawjson.Line) {
		if l.Text == nil {
			got = append(got, fmt.Sprintf("%d: (%d bytes)", l.Number, l.Size))
			return
		}
		got = append(got, fmt.Sprintf("%d: %s", l.Number, l.Text))
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, next, info.Size()
}

func TestAppendCutsOffATornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(path, []byte("{\"a\":1}\n{\"torn"), 0o600)
	got, next, size := lines(t, path, 100)
	if strings.Join(got, "|") != `1: {"a":1}` || next != 8 || size != 14 {
		t.Errorf("before: %q, next %d of %d", got, next, size)
	}
	f, err := rawjson.OpenLines(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Lock()
	if size, err := f.Append([]byte(`{"b":2}`)); err != nil || size != 16 {
		t.Fatal(size, err)
	}
	f.Unlock()
	if data, _ := os.ReadFile(path); string(data) != "{\"a\":1}\n{\"b\":2}\n" {
		t.Errorf("after: %q", data)
	}
	// A file that is one torn line is emptied.
	os.WriteFile(path, []byte("{\"torn"), 0o600)
	if size, err := f.RepairTail(); err != nil || size != 0 {
		t.Errorf("RepairTail: %d %v", size, err)
	}
}

func TestReadSkipsLongLinesAndSaysWhere(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	long := strings.Repeat("x", 200_000)
	os.WriteFile(path, []byte("one\n"+long+"\n\nthree\n"+long), 0o600)
	got, next, size := lines(t, path, 100)
	if want := "1: one|2: (200000 bytes)|3: |4: three"; strings.Join(got, "|") != want || next != size-int64(len(long)) {
		t.Errorf("%q, next %d of %d", got, next, size)
	}
	got, _, _ = lines(t, path, 200_000)
	if len(got) != 4 || got[1] != "2: "+long {
		t.Errorf("at the limit: %.60q", got)
	}
}

// Writers with files of their own, as separate processes have, never
// interleave their lines.
func TestAppendsOfManyWritersStayWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			f, err := rawjson.OpenLines(path)
			if err != nil {
				t.Error(err)
				return
			}
			defer f.Close()
			for i := range 100 {
				f.Lock()
				if _, err := f.Append([]byte(fmt.Sprintf(`{"w":%d,"i":%d,"pad":"%s"}`, w, i, strings.Repeat("p", 5000)))); err != nil {
					t.Error(err)
				}
				f.Unlock()
			}
		})
	}
	wg.Wait()
	got, next, size := lines(t, path, 1<<20)
	if len(got) != 800 || next != size {
		t.Fatalf("%d lines, next %d of %d", len(got), next, size)
	}
	for _, l := range got {
		if !strings.HasSuffix(l, `"}`) || strings.Count(l, `"w"`) != 1 {
			t.Fatalf("a mixed line: %.100s", l)
		}
	}
}

// FuzzRead: whatever a file holds, Read hands over whole lines without
// their newline, each within the limit or marked too long, accounts for
// every byte up to the offset it returns, and leaves after it only a last
// line without a newline.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{"", "a\n", "a\nb", "\n\n", "{\"k\":1}\ntorn", strings.Repeat("x", 40) + "\nshort\n"} {
		f.Add([]byte(seed), 16)
	}
	f.Fuzz(func(t *testing.T, data []byte, maxLine int) {
		if maxLine < 1 || maxLine > 1<<20 {
			return
		}
		var handed int64
		next, err := rawjson.ReadLines(bytes.NewReader(data), 0, int64(len(data)), maxLine, func(l rawjson.Line) {
			if l.Text != nil && (len(l.Text) != l.Size || bytes.IndexByte(l.Text, '\n') >= 0) || (l.Text == nil) != (l.Size > maxLine) {
				t.Fatalf("line %d: %q, size %d, limit %d", l.Number, l.Text, l.Size, maxLine)
			}
			handed += int64(l.Size) + 1
		})
		if err != nil || next != handed || next > int64(len(data)) || bytes.IndexByte(data[next:], '\n') >= 0 {
			t.Fatalf("next %d, handed %d, of %d: %v", next, handed, len(data), err)
		}
	})
}
