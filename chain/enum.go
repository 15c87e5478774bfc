package chain

import "fmt"

// enumName is k's name in names; a value without one reads as kind(number), so logs and
// errors still show what arrived.
func enumName[K ~uint8](k K, names map[K]string, kind string) string {
	if name, ok := names[k]; ok {
		return name
	}
	return fmt.Sprintf("%s(%d)", kind, uint8(k))
}
