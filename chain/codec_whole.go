package chain

// encoded serializes v with write on a fresh writer.
func encoded[T any](v T, write func(*writer, T)) []byte {
	w := &writer{}
	write(w, v)
	return w.buf
}

// decodedWhole reads one value with read from all of b (path names it in errors). The
// value comes back beside an error too: callers of the small fixed-layout decoders get
// what was read so far.
func decodedWhole[T any](b []byte, path string, read func(*reader, string) T) (T, error) {
	r := &reader{buf: b}
	v := read(r, path)
	return v, r.finish(path)
}
