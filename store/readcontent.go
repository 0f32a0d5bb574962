package store

import (
	"fmt"
	"io"
	"os"
)

// ReadContent reads an entry's content from r, named from in errors ("stdin",
// a file name). It reads at most one byte past MaxContentBytes, so a huge
// input fails fast with a *FieldError for "content" instead of filling
// memory. It does not check the text (ValidateContent does).
func ReadContent(r io.Reader, from string) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxContentBytes+1))
	if err != nil {
		if _, named := err.(*os.PathError); named { // it already names the file
			return "", err
		}
		return "", fmt.Errorf("read %s: %w", from, err)
	}
	if len(b) > MaxContentBytes {
		return "", &FieldError{Field: "content", Reason: fmt.Sprintf("%s is larger than the limit of %d bytes", from, MaxContentBytes)}
	}
	return string(b), nil
}
