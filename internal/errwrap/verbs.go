package errwrap

import "strconv"

// verb is one formatting verb of a format string and the index of the argument it
// formats.
type verb struct {
	verb rune
	arg  int
}

// verbs lists the verbs of a format string with their arguments, following fmt's rules:
// flags, '*' widths and precisions (each takes an argument) and explicit [n] indexes.
func verbs(format string) []verb {
	var out []verb
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		for i++; i < len(format); i++ {
			c := format[i]
			switch {
			case c == '[':
				arg, i = explicitIndex(format, i, arg)
			case c == '*':
				arg++
			case c == '+' || c == '-' || c == '#' || c == ' ' || c == '.' || (c >= '0' && c <= '9'):
			default:
				if c != '%' {
					out = append(out, verb{verb: rune(c), arg: arg})
					arg++
				}
				goto next
			}
		}
	next:
	}
	return out
}

// explicitIndex reads "[n]" at format[i]: the argument it names (zero-based) and the
// position of its ']'. A malformed index keeps the argument (vet's printf check reports it).
func explicitIndex(format string, i, arg int) (int, int) {
	for j := i + 1; j < len(format); j++ {
		if format[j] == ']' {
			n, err := strconv.Atoi(format[i+1 : j])
			if err != nil || n < 1 {
				return arg, j
			}
			return n - 1, j
		}
	}
	return arg, len(format)
}
