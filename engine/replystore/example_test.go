package replystore_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mobilemcp/mobilemcp/engine/replystore"
)

// Do runs a request once per key within the window: a retry with the same
// key gets the stored reply and runs nothing, even from another process
// that opens the same file, and a key reused for a different request (its
// fingerprint differs) is refused.
func ExampleStore_Do() {
	dir, err := os.MkdirTemp("", "replies")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	store, err := replystore.Open(replystore.Options{Path: filepath.Join(dir, replystore.FileName)})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()

	sends := 0
	send := func() ([]byte, bool) {
		sends++
		return []byte(`{"status":"success","message":"SMS sent to +33785880347"}`), true // keep it
	}
	for range 2 {
		reply, replayed, err := store.Do("assistant/r1", "send_sms +33785880347 Hello", send)
		fmt.Printf("%s replayed=%v err=%v\n", reply, replayed, err)
	}
	_, _, err = store.Do("assistant/r1", "send_sms +36201234567 Hi", send)
	fmt.Println(err)
	fmt.Println("sent", sends, "time")
	// Output:
	// {"status":"success","message":"SMS sent to +33785880347"} replayed=false err=<nil>
	// {"status":"success","message":"SMS sent to +33785880347"} replayed=true err=<nil>
	// this request id was already used for a different request
	// sent 1 time
}
