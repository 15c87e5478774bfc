// Package readfile reads a whole file through a decoder of its format.
package readfile

import (
	"io"
	"os"
)

// With opens path and reads it with read; the error of a file that does not open is
// os.Open's, which names the path.
func With[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	return read(f)
}
