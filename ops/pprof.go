package ops

import (
	"net/http"
	"net/http/pprof"
)

// profiles registers net/http/pprof's handlers on mux, the ops listener's own. (Importing
// the package also registers them on http.DefaultServeMux, which no server here serves:
// the API has a mux of its own.)
func profiles(mux *http.ServeMux) {
	mux.HandleFunc("GET /debug/pprof/", pprof.Index) // heap, goroutine, allocs, block, mutex, threadcreate
	mux.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("POST /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
}
