package store_test

import (
	"errors"
	"fmt"

	"github.com/recallhq/recall/store"
)

func ExampleValidate() {
	for _, e := range []store.Entry{
		{Category: "trips", Name: "三亚之行", Content: "海边"},
		{Category: "projects/harbor", Name: "Budget (2025)", Content: "x"},
		{Category: "trips", Name: "a/b", Content: "x"},
		{Category: "devices", Name: "con.txt", Content: "x"},
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
	// ok
	// name: invalid name "a/b": contains '/', which is not allowed (refused: / \ : [ ] | # ^ < > " ? * and control characters) (invalid: true)
	// name: invalid name "con.txt": is a Windows device name (invalid: true)
	// category: invalid category "..": must not be . or .. (invalid: true)
}
