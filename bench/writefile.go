package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// WriteFile writes the file at path with write (a Report's WriteJSON or
// WriteSVG, say), rendering it whole before touching the file, so that a
// failure never leaves half a file behind.
func WriteFile(path string, write func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
