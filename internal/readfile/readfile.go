// Package readfile reads a whole file through a decoder of its format.
package readfile

import (
	"fmt"
	"io"
	"os"
)

// With opens path and reads it with read. A file that does not open is os.Open's error
// (which names the path) after prefix; read's errors come as read gives them, since a
// decoder names its own package.
func With[T any](prefix, path string, read func(io.Reader) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("%s: %w", prefix, err)
	}
	defer f.Close()
	return read(f)
}
