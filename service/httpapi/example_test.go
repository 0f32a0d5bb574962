package httpapi_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	fsstore "github.com/recallhq/recall/store/fs"
)

// A Go program mounts recall's API under its own mux, next to its own
// routes.
func Example() {
	dir, _ := os.MkdirTemp("", "recall-example")
	defer os.RemoveAll(dir)
	st, err := fsstore.Open(dir, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	m := service.New(st, service.Options{})
	if err := m.Start(context.Background()); err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	api, err := httpapi.New(m, httpapi.Options{})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/memory/", http.StripPrefix("/memory", api))
	srv := httptest.NewServer(mux) // your http.Server, on loopback
	defer srv.Close()

	send := func(method, path, body string) string {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(b)))
	}
	fmt.Println(send("PUT", "/memory/v1/entries/people/Emma", `{"content": "Designer in Lisbon.", "tags": ["friend"]}`))
	fmt.Println(send("POST", "/memory/v1/entries/people/Emma/append", `{"text": "Likes the sea."}`))
	fmt.Println(send("GET", "/memory/v1/categories", ""))
	// Output:
	// 201 {"category":"people","name":"Emma","status":"added"}
	// 200 {"category":"people","name":"Emma","status":"updated"}
	// 200 [
	//   {
	//     "category": "people",
	//     "count": 1
	//   }
	// ]
}
