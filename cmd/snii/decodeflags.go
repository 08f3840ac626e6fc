package main

import (
	"github.com/snii-go/snii/limits"
	"github.com/snii-go/snii/reader"
	"github.com/spf13/pflag"
)

// decodeFlags bound the memory of decoding .prx windows (reader.Options
// MaxUnitBytes and DecodeBudget): flags of query, verify, capture and merge.
type decodeFlags struct {
	maxUnit sizeValue
	maxMem  sizeValue
}

func (d *decodeFlags) add(fs *pflag.FlagSet) {
	fs.Var(&d.maxUnit, "max-unit-bytes", "the largest positions payload one compressed .prx unit may declare, e.g. 64MiB; "+
		"a larger one fails (exit 1) before anything is allocated (default 16MiB, at most 256MiB)")
	fs.Var(&d.maxMem, "max-decode-memory", "the most memory the command holds at once in decompressed .prx units, e.g. 64MiB "+
		"(default 256MiB)")
}

// options returns the reader options of the flags: one budget for every
// segment the command opens.
func (d *decodeFlags) options() (reader.Options, error) {
	// 0 is how the library spells "the default": on the command line the
	// default is leaving the flag out.
	if d.maxUnit.set && d.maxUnit.val == 0 {
		return reader.Options{}, usagef("--max-unit-bytes 0: want 1 byte up to %s (leave the flag out for the default %s)",
			formatBytes(limits.DefaultMaxBytes), formatBytes(reader.DefaultMaxUnitBytes))
	}
	if d.maxMem.set && d.maxMem.val == 0 {
		return reader.Options{}, usagef("--max-decode-memory 0: want a size of at least --max-unit-bytes (leave the flag out for the default %s)",
			formatBytes(reader.DefaultDecodeMemory))
	}
	if d.maxUnit.val > limits.DefaultMaxBytes {
		return reader.Options{}, usagef("--max-unit-bytes %s: at most %s", formatBytes(d.maxUnit.val), formatBytes(limits.DefaultMaxBytes))
	}
	if d.maxMem.val > 0 && d.maxMem.val < d.maxUnit.val {
		return reader.Options{}, usagef("--max-decode-memory %s is smaller than --max-unit-bytes %s: such a unit could never be decoded",
			formatBytes(d.maxMem.val), formatBytes(d.maxUnit.val))
	}
	o := reader.Options{MaxUnitBytes: int(d.maxUnit.val)}
	if d.maxMem.val > 0 {
		o.DecodeBudget = reader.NewDecodeBudget(d.maxMem.val)
	}
	return o, nil
}
