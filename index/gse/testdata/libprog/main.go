// Command libprog is a library program: it uses retrieve over a bolt store
// with the default analyzer and segmentation off. TestCoreDoesNotLinkGSE
// lists its dependencies.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/store/bolt"
)

func main() {
	st, err := bolt.Open(os.Args[1], nil)
	if err != nil {
		panic(err)
	}
	defer st.Close()
	eng := retrieve.New(st, retrieve.Options{Analyzer: index.English()})
	res, err := eng.Retrieve(context.Background(), retrieve.Request{Query: os.Args[2]})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(res.Items))
}
