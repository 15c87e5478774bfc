package api

import (
	"context"
	"net/http"
	"time"
)

// serve runs one request of rt: method check (and token, for admin routes),
// parameters, deadline, handler, answer.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, rt *route) {
	if rt.mux != "" && !rt.matches(r.URL.Path) {
		s.fail(w, r, rt, notFound("no route %s (see /openapi.json)", r.URL.Path), nil)
		return
	}
	switch {
	case rt.refuse != nil:
		s.fail(w, r, rt, rt.refuse(r), nil)
		return
	case rt.admin:
		if !s.serveAdmin(w, r, rt) {
			return
		}
	case rt.body != "":
		if !allowPost(w, r, rt) {
			return
		}
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		w.Header().Set("Allow", "GET, HEAD")
		s.fail(w, r, rt, &apiError{Status: http.StatusMethodNotAllowed, Title: "method not allowed",
			Detail: r.Method + " " + r.URL.Path + ": this API is read-only (GET, HEAD)"}, nil)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, rt.maxBody())
	if rt.plain != nil {
		s.setCacheHeaders(w, rt, classOf(rt, nil))
		rt.plain.ServeHTTP(w, r)
		return
	}
	in, err := parseInput(rt, r.PathValue, r.URL.RawQuery)
	if err != nil {
		s.fail(w, r, rt, classify(r.Context(), err, false), err)
		return
	}
	in.accept, in.body = r.Header.Get("Accept"), r.Body
	if s.revalidated(w, r, rt, in) {
		return
	}
	parent, timeout := r.Context(), s.cfg.RequestTimeout
	if rt.admin {
		// An admin job, once started, runs to its end even if the client leaves: a
		// half-done one is safe to redo, but its client should not cause it.
		parent, timeout = context.WithoutCancel(parent), s.cfg.AdminTimeout
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	start := time.Now()
	out, err := s.handle(ctx, rt, in)
	if err != nil {
		e := classify(ctx, err, in.cursor != nil)
		if rt.admin {
			logAdmin(r, rt, in, e.Status, time.Since(start))
		}
		s.fail(w, r, rt, e, err)
		return
	}
	if rt.admin {
		logAdmin(r, rt, in, http.StatusOK, time.Since(start))
	}
	setCoverageHeader(w, out)
	s.answer(w, r, rt, in, out)
}

// fail answers e with its cache headers (setErrorCache).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, rt *route, e *apiError, cause error) {
	s.setErrorCache(w, rt, e.Status)
	writeRouteError(w, r, rt, e, cause)
}

// handle runs rt's handler once the request's addresses are in the network's form.
func (s *Server) handle(ctx context.Context, rt *route, in *input) (any, error) {
	hrp, err := s.hrp(ctx)
	if err != nil {
		return nil, err
	}
	in.localize(hrp)
	return rt.handle(ctx, in)
}

// hrp is the bech32 HRP of the keyspace's network. Until an indexer has recorded the
// network nothing is indexed, and addresses are shown in hex.
func (s *Server) hrp(ctx context.Context) (string, error) {
	rec, ok, err := s.st.Network(ctx)
	if err != nil || !ok {
		return "", err
	}
	return rec.HRP, nil
}

// defaultRequestTimeout bounds every query a request runs (Config.RequestTimeout).
const defaultRequestTimeout = 5 * time.Second

// allowPost answers 405 to a route with a body asked with another method; it returns
// false if the request goes no further.
func allowPost(w http.ResponseWriter, r *http.Request, rt *route) bool {
	if r.Method == http.MethodPost {
		return true
	}
	w.Header().Set("Allow", http.MethodPost)
	writeRouteError(w, r, rt, &apiError{Status: http.StatusMethodNotAllowed, Title: "method not allowed",
		Detail: r.Method + " " + rt.pattern + ": this route takes POST with a JSON body"}, nil)
	return false
}
