package realdata

import (
	"fmt"
	"strconv"
	"strings"
)

const chronicleFile = "chronicle_analytics_17339_17340.json"

// ChronicleFigures are inx-chronicle's own analytics figures of a milestone, by family
// (Chronicle's measurement name) and figure path inside it ("nft.created_count"), as
// the families' rows name them.
type ChronicleFigures map[string]map[string]int64

type fileChronicle struct {
	Source          string                      `json:"source"`
	Note            string                      `json:"note"`
	Milestones      map[string]map[string]int64 `json:"milestones"`
	NotFromDatabase map[string][]string         `json:"not_from_database"`
}

// ChronicleAnalytics reads chronicle_analytics_17339_17340.json: each milestone's
// figures, keyed "analytics.<family>.<path>" in the file, with Chronicle's ".0" field
// suffix of an amount dropped.
func ChronicleAnalytics() (map[uint32]ChronicleFigures, error) {
	out := map[uint32]ChronicleFigures{}
	err := eachChronicleFigure(func(index uint32, family, path string, _ bool, value int64) {
		if out[index] == nil {
			out[index] = ChronicleFigures{}
		}
		if out[index][family] == nil {
			out[index][family] = map[string]int64{}
		}
		out[index][family][path] = value
	})
	return out, err
}

// ChronicleAmounts are the figures ("<family>.<path>") Chronicle names as amounts (a
// ".0" field in the file): the token amounts among them.
func ChronicleAmounts() (map[string]bool, error) {
	out := map[string]bool{}
	err := eachChronicleFigure(func(_ uint32, family, path string, amount bool, _ int64) {
		out[family+"."+path] = amount
	})
	return out, err
}

// eachChronicleFigure calls fn with every figure of the file: its milestone, family,
// path (without ".0"), whether Chronicle names it an amount, and its value.
func eachChronicleFigure(fn func(index uint32, family, path string, amount bool, value int64)) error {
	var file fileChronicle
	if err := readStrict(chronicleFile, &file); err != nil {
		return err
	}
	for key, figures := range file.Milestones {
		index, err := strconv.ParseUint(key, 10, 32)
		if err != nil {
			return fmt.Errorf("realdata: %s: milestone %q: %w", chronicleFile, key, err)
		}
		for name, value := range figures {
			rest, prefixed := strings.CutPrefix(name, "analytics.")
			family, path, ok := strings.Cut(rest, ".")
			if !ok || !prefixed {
				return fmt.Errorf("realdata: %s: %q is not analytics.<family>.<path>", chronicleFile, name)
			}
			path, amount := strings.CutSuffix(path, ".0")
			fn(uint32(index), family, path, amount, value)
		}
	}
	return nil
}
