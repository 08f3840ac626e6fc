package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// enumValue is a string flag that accepts only the listed values.
type enumValue struct {
	val     string
	allowed []string
}

func newEnum(def string, allowed ...string) *enumValue {
	return &enumValue{val: def, allowed: allowed}
}

func (e *enumValue) String() string { return e.val }
func (e *enumValue) Type() string   { return strings.Join(e.allowed, "|") }
func (e *enumValue) Set(s string) error {
	for _, a := range e.allowed {
		if s == a {
			e.val = s
			return nil
		}
	}
	return fmt.Errorf("want %s", orList(e.allowed))
}

// complete offers the allowed values in shell completion.
func (e *enumValue) complete(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return e.allowed, cobra.ShellCompDirectiveNoFileComp
}

// orList renders "a", "a or b", "a, b or c".
func orList(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// intRange is an int flag accepting only lo..hi.
type intRange struct {
	val    int
	lo, hi int
	what   string // e.g. "-1 (budget), 0 (smallest frame) or a share 1..100"
}

func newIntRange(def, lo, hi int, what string) *intRange {
	return &intRange{val: def, lo: lo, hi: hi, what: what}
}

func (r *intRange) String() string { return strconv.Itoa(r.val) }
func (r *intRange) Type() string   { return "int" }
func (r *intRange) Set(s string) error {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v < r.lo || v > r.hi {
		return fmt.Errorf("want %s", r.what)
	}
	r.val = v
	return nil
}

// sizeValue is a byte size flag: "512MiB", "2g", "64k", "1000000".
type sizeValue struct {
	val int64
	set bool // given on the command line
}

func (s *sizeValue) String() string {
	if s.val == 0 {
		return "0"
	}
	return formatBytes(s.val)
}
func (s *sizeValue) Type() string { return "size" }
func (s *sizeValue) Set(v string) error {
	n, err := parseSize(v)
	if err != nil {
		return err
	}
	s.val, s.set = n, true
	return nil
}

// parseSize parses a byte size: a number with an optional unit B, K/KB/KiB,
// M/MB/MiB, G/GB/GiB, T/TB/TiB (case-insensitive; every unit is binary: 1k = 1024).
func parseSize(v string) (int64, error) {
	s := strings.TrimSpace(v)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	num, unit := s[:i], strings.ToLower(strings.TrimSpace(s[i:]))
	f, err := strconv.ParseFloat(num, 64)
	if num == "" || err != nil || f < 0 {
		return 0, fmt.Errorf("want a size like 512MiB, 2GiB or 1048576")
	}
	mult := map[string]float64{"": 1, "b": 1,
		"k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
		"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20,
		"g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30,
		"t": 1 << 40, "tb": 1 << 40, "tib": 1 << 40}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("unknown unit %q (want B, KiB, MiB, GiB or TiB)", s[i:])
	}
	b := f * mult
	if b >= math.MaxInt64 {
		return 0, fmt.Errorf("size %q too large", v)
	}
	return int64(b), nil
}

// formatBytes renders n bytes as "812 B", "1.5 KiB", "23.4 MiB".
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit && n > -unit {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n), -1
	for (f >= unit || f <= -unit) && i < 4 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, "KMGTP"[i])
}
