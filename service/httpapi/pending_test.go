package httpapi_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/service/httpapi"
)

// Two Handlers given one Pending share its bound: while a client that
// does not read holds a large answer of the first, a large answer of the
// second is refused with 503; each with a bound of its own, it is sent.
func TestPendingShared(t *testing.T) {
	for _, shared := range []bool{true, false} {
		var opts [2]httpapi.Options
		p := httpapi.NewPending((bigAnswerEntries + bigAnswerEntries/2) << 20)
		for i := range opts {
			opts[i] = httpapi.Options{WriteTimeout: -1, MaxPendingBytes: (bigAnswerEntries + bigAnswerEntries/2) << 20}
			if shared {
				opts[i].Pending = p
			}
		}
		h1, err := httpapi.New(bigMemory(t), opts[0])
		if err != nil {
			t.Fatal(err)
		}
		h2, err := httpapi.New(bigMemory(t), opts[1])
		if err != nil {
			t.Fatal(err)
		}
		addr1, _ := serveLoopback(t, h1)
		addr2, _ := serveLoopback(t, h2)
		slow := sendAndNotRead(t, addr1, bigRetrieve)
		slow.SetReadDeadline(time.Now().Add(2 * time.Minute))
		status := make([]byte, len("HTTP/1.1 200"))
		if _, err := io.ReadFull(slow, status); err != nil || string(status) != "HTTP/1.1 200" {
			t.Fatalf("the slow client's answer: %q %v", status, err)
		}
		resp, err := (&http.Client{Timeout: time.Minute}).Post("http://"+addr2+"/v1/retrieve", "application/json", strings.NewReader(bigRetrieve))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		want := http.StatusOK
		if shared {
			want = http.StatusServiceUnavailable
		}
		if resp.StatusCode != want {
			t.Errorf("shared %v: the other handler's large answer: %d, want %d", shared, resp.StatusCode, want)
		}
		slow.Close()
	}
}
