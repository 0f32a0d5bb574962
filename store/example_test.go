package store_test

import (
	"errors"
	"fmt"

	"github.com/recallhq/recall/store"
)

func ExampleValidate() {
	for _, e := range []store.Entry{
		{Category: "trips", Name: "三亚之行", Content: "海边"},
		{Category: "trips", Name: "a/b", Content: "x"},
		{Category: "..", Name: "x", Content: "x"},
	} {
		err := store.Validate(e)
		var fe *store.FieldError
		switch {
		case err == nil:
			fmt.Println("ok")
		case errors.As(err, &fe):
			fmt.Printf("%s: %v (invalid: %v)\n", fe.Field, err, errors.Is(err, store.ErrInvalid))
		}
	}
	// Output:
	// ok
	// name: invalid name "a/b": contains '/', which is not allowed (use letters, digits, space, '-', '_', '.') (invalid: true)
	// category: invalid category "..": must not be . or .. (invalid: true)
}
