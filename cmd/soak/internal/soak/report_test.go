package soak

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"
)

// fixedSamples are 40 samples a minute apart, 1000 milestones apart, after which: the
// indexer's heap holds at 100 MB give or take 3 MB (flat); its RSS grows 1% per 10 000
// milestones (flat); both live heaps hold (flat); the API's heap grows 5% per 10 000 (growing); the indexer's
// goroutines swing between 300 and 400 above a floor of 300 (flat); the API's open files
// rise by one every 5 samples (growing). The indexer asks its node 10 requests a
// milestone up to milestone 25 000 and 20 after. The first 10 minutes are a warm-up in
// which everything is higher.
func fixedSamples() []Sample {
	var out []Sample
	for i := range 40 {
		ms := float64(i * 1000)
		s := Sample{Elapsed: time.Duration(i) * time.Minute, Milestone: uint32(i * 1000), Lag: 2, Requests: float64(i * 100),
			Indexer: Process{HeapInuse: 100e6 + 3e6*math.Sin(float64(i)), RSS: 150e6 * (1 + 0.01*ms/Per),
				Goroutines: 300 + float64(i%4)*33, OpenFDs: 40, HeapLive: 50e6 + 1e6*math.Cos(float64(i))},
			API: Process{HeapInuse: 50e6 * (1 + 0.05*ms/Per), RSS: 80e6, Goroutines: 60, OpenFDs: 20 + float64(i/5),
				HeapLive: 20e6}}
		s.NodeRequests = 10*ms + 10*max(ms-25000, 0)
		if i < 10 {
			s.Indexer.HeapInuse, s.Indexer.Goroutines = 300e6, 900
		}
		out = append(out, s)
	}
	return out
}

func TestVerdicts(t *testing.T) {
	judged := afterWarmup(fixedSamples(), 10*time.Minute)
	want := map[string]string{"indexer heap in use": Flat, "indexer live heap": Flat, "api live heap": Flat, "indexer RSS": Flat, "indexer goroutines": Flat,
		"indexer open files": Flat, "api heap in use": Growing, "api RSS": Flat, "api goroutines": Flat, "api open files": Growing}
	for _, sr := range AllSeries {
		j := Judge(sr, judged)
		if j.Verdict != want[sr.Name] {
			t.Errorf("%s: %s (growth %g, share %g, floors %g → %g), want %s", sr.Name, j.Verdict, j.Growth, j.Share,
				j.FirstFloor, j.LastFloor, want[sr.Name])
		}
	}
	rss := Judge(seriesNamed(t, "indexer RSS"), judged)
	if math.Abs(rss.Growth-1.5e6) > 1 || rss.Start.Milestone != 10000 || rss.End.Milestone != 39000 {
		t.Errorf("indexer RSS: growth %g per %d (want 1.5 MB), start @%d, end @%d", rss.Growth, Per, rss.Start.Milestone,
			rss.End.Milestone)
	}
	if m := rss.Middle.Milestone; m != 24000 && m != 25000 {
		t.Errorf("middle @%d, want the sample nearest milestone 24500", m)
	}
}

// Fewer samples than a verdict needs, or milestones that did not move, say so.
func TestTooShortToTell(t *testing.T) {
	few := afterWarmup(fixedSamples(), 36*time.Minute)
	stuck := fixedSamples()[10:]
	for i := range stuck {
		stuck[i].Milestone = 500
	}
	for name, judged := range map[string][]Sample{"4 samples": few, "no milestones": stuck, "none": nil} {
		if j := Judge(AllSeries[0], judged); j.Verdict != TooShort {
			t.Errorf("%s: %s, want %s", name, j.Verdict, TooShort)
		}
	}
}

// The samples and latency snapshots go through their CSV files unchanged, and the table
// made from them states the warm-up, each series' verdict and the per-route percentiles
// of the answers after the warm-up.
func TestTableFromCSV(t *testing.T) {
	var csvBuf, latBuf bytes.Buffer
	if err := WriteSamples(&csvBuf, fixedSamples()); err != nil {
		t.Fatal(err)
	}
	inf := math.Inf(1)
	b := []float64{0.001, 0.01, 0.1, inf}
	lat := Latency{Warm: map[string]*Histogram{"/a": {Bounds: b, Counts: []float64{900, 900, 900, 900}}},
		End: map[string]*Histogram{"/a": {Bounds: b, Counts: []float64{950, 999, 1000, 1000}},
			"/b": {Bounds: b, Counts: []float64{0, 0, 10, 20}}}}
	if err := WriteLatency(&latBuf, lat); err != nil {
		t.Fatal(err)
	}
	samples, err := ReadSamples(&csvBuf)
	if err != nil || len(samples) != 40 || samples[39] != fixedSamples()[39] {
		t.Fatalf("%d samples read back, %v; last %+v", len(samples), err, samples[len(samples)-1])
	}
	back, err := ReadLatency(&latBuf)
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	if err := WriteTable(&table, samples, back, 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	out := table.String()
	for _, want := range []string{"milestones 0..39000", "warm-up: the first 10m0s (up to milestone 10000)",
		"judged: 30 samples over 29000 milestones", "80.0 MB @10000", "+4.8%", "/b 20 100.0 ms >100.0 ms >100.0 ms",
		"/a 100 1.0 ms 10.0 ms 91.0 ms", "node load: 10.0, 15.0, 20.0 node requests a milestone", "+1.0% - flat", "+9.0% 22 → 26 growing",
		"300 → 300 flat"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	for _, sr := range AllSeries {
		line := lineOf(out, sr.Name)
		if want := map[bool]string{true: Growing, false: Flat}[sr.Name == "api heap in use" || sr.Name == "api open files"]; !strings.HasSuffix(strings.TrimSpace(line), want) {
			t.Errorf("%s: %q, want verdict %s", sr.Name, line, want)
		}
	}
	if strings.Index(out, "/a ") > strings.Index(out, "/b ") {
		t.Errorf("routes not busiest first:\n%s", out)
	}
}

func seriesNamed(t *testing.T, name string) Series {
	t.Helper()
	for _, sr := range AllSeries {
		if sr.Name == name {
			return sr
		}
	}
	t.Fatalf("no series %q", name)
	return Series{}
}

// A samples.csv written before the live heap columns still reads, with no live heap; one
// written before the node requests column reads with none.
func TestSamplesWithoutTheLiveHeap(t *testing.T) {
	old := "elapsed_s,milestone,lag_milestones,indexer_heap_inuse_bytes,indexer_rss_bytes,indexer_goroutines," +
		"indexer_open_fds,api_heap_inuse_bytes,api_rss_bytes,api_goroutines,api_open_fds,api_requests\n" +
		"10,120,3,1000,2000,30,40,500,600,7,8,90\n"
	samples, err := ReadSamples(strings.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	want := Sample{Elapsed: 10 * time.Second, Milestone: 120, Lag: 3, Requests: 90,
		Indexer: Process{HeapInuse: 1000, RSS: 2000, Goroutines: 30, OpenFDs: 40},
		API:     Process{HeapInuse: 500, RSS: 600, Goroutines: 7, OpenFDs: 8}}
	if len(samples) != 1 || samples[0] != want {
		t.Fatalf("read %+v, want %+v", samples, want)
	}
	withLive := strings.Replace(old, "api_requests\n", "api_requests,indexer_heap_live_bytes,api_heap_live_bytes\n", 1)
	withLive = strings.Replace(withLive, ",90\n", ",90,11,12\n", 1)
	samples, err = ReadSamples(strings.NewReader(withLive))
	want.Indexer.HeapLive, want.API.HeapLive = 11, 12
	if err != nil || len(samples) != 1 || samples[0] != want {
		t.Fatalf("with the live heaps, no node requests: read %+v (%v), want %+v", samples, err, want)
	}
	if _, err := ReadSamples(strings.NewReader("elapsed_s,milestone\n1,2\n")); !errors.Is(err, ErrSamples) {
		t.Fatalf("two columns: %v, want ErrSamples", err)
	}
}

func lineOf(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), prefix) {
			return l
		}
	}
	return ""
}

// Malformed files are refused by name.
func TestReadRefusesMalformed(t *testing.T) {
	for name, text := range map[string]string{"no header": "1,2,3\n", "empty": "",
		"bad number": strings.Join(csvHeader, ",") + "\n" + strings.Repeat("x,", 11) + "x\n"} {
		if _, err := ReadSamples(strings.NewReader(text)); !errors.Is(err, ErrSamples) {
			t.Errorf("samples %s: %v, want ErrSamples", name, err)
		}
	}
	if _, err := ReadLatency(strings.NewReader("snapshot,route,le,count\nlater,/a,1,2\n")); !errors.Is(err, ErrSamples) {
		t.Errorf("latency with an unknown snapshot: %v", err)
	}
}

// The chart is one well-formed SVG document with a panel per series, titled with its
// name, whose line has a point per sample, and the warm-up's end marked.
func TestChart(t *testing.T) {
	samples := fixedSamples()
	var buf bytes.Buffer
	if err := WriteChart(&buf, samples, 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(&buf)
	var root string
	titles, lines, warm := map[string]bool{}, 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		switch {
		case !ok:
		case root == "":
			root = se.Name.Space + " " + se.Name.Local
		case se.Name.Local == "polyline":
			lines++
			if n := len(strings.Fields(attr(se, "points"))); n != len(samples) {
				t.Errorf("a line of %d points, want %d", n, len(samples))
			}
		case se.Name.Local == "line":
			warm++
		case se.Name.Local == "text" && attr(se, "font-weight") == "bold":
			var name string
			if err := dec.DecodeElement(&name, &se); err != nil {
				t.Fatal(err)
			}
			titles[name] = true
		}
	}
	if root != "http://www.w3.org/2000/svg svg" || lines != len(AllSeries) || warm != len(AllSeries) {
		t.Fatalf("root %q, %d lines, %d warm-up marks; want an svg with %d each", root, lines, warm, len(AllSeries))
	}
	for _, sr := range AllSeries {
		if !titles[sr.Name] {
			t.Errorf("no panel titled %q", sr.Name)
		}
	}
}

func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
