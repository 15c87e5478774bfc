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
	var file fileChronicle
	if err := readStrict(chronicleFile, &file); err != nil {
		return nil, err
	}
	out := map[uint32]ChronicleFigures{}
	for key, figures := range file.Milestones {
		index, err := strconv.ParseUint(key, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("realdata: %s: milestone %q: %w", chronicleFile, key, err)
		}
		ms := ChronicleFigures{}
		for name, value := range figures {
			family, path, ok := strings.Cut(strings.TrimPrefix(name, "analytics."), ".")
			if !ok || !strings.HasPrefix(name, "analytics.") {
				return nil, fmt.Errorf("realdata: %s: %q is not analytics.<family>.<path>", chronicleFile, name)
			}
			if ms[family] == nil {
				ms[family] = map[string]int64{}
			}
			ms[family][strings.TrimSuffix(path, ".0")] = value
		}
		out[uint32(index)] = ms
	}
	return out, nil
}
