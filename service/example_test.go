package service_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/recallhq/recall/service"
	fsstore "github.com/recallhq/recall/store/fs"
)

func Example() {
	dir, _ := os.MkdirTemp("", "recall-example")
	defer os.RemoveAll(dir)
	st, err := fsstore.Open(dir, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	m := service.New(st, service.Options{})
	m.Add(ctx, service.AddRequest{Category: "people", Name: "Emma", Content: "Designer in Porto.", Tags: []string{"friend"}})
	m.Append(ctx, "people", "Emma", "Likes the sea.")
	m.Edit(ctx, "people", "Emma", "Porto", "Lisbon")
	e, _ := m.Get(ctx, "people", "Emma")
	fmt.Printf("%q %v\n", e.Content, e.Meta.Tags)
	res, _, _ := m.Retrieve(ctx, service.RetrieveParams{Query: "sea", Tags: []string{"friend"}})
	fmt.Println(len(res.Items), res.Items[0].Name)
	// Output:
	// "Designer in Lisbon.\nLikes the sea." [friend]
	// 1 Emma
}
