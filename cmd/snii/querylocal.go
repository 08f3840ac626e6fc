package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/snii-go/snii/reader"
)

// localSegments returns the segment files a local path names when it names
// several (many true): a glob, quoted for the shell ('logs/*.snii'), or a
// directory (its *.snii files), in name order. An existing file is one
// segment (many false), whatever its name.
func localSegments(p string) (paths []string, many bool, err error) {
	st, err := os.Stat(p)
	switch {
	case err == nil && st.IsDir():
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, false, err
		}
		for _, e := range ents {
			if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".snii") {
				paths = append(paths, filepath.Join(p, e.Name()))
			}
		}
		if len(paths) == 0 {
			return nil, false, fmt.Errorf("%s is a directory without .snii files: %w", p, fs.ErrNotExist)
		}
		return paths, true, nil
	case err == nil || !strings.ContainsAny(p, "*?[") || !errors.Is(err, fs.ErrNotExist):
		return nil, false, nil // one file (opening it reports any error)
	}
	paths, err = filepath.Glob(p)
	if err != nil {
		return nil, false, usagef("%s: bad glob pattern (quote it for the shell: 'logs/*.snii')", p)
	}
	if len(paths) == 0 {
		return nil, false, fmt.Errorf("%s: no file matches: %w", p, fs.ErrNotExist)
	}
	slices.Sort(paths)
	return paths, true, nil
}

// runQueryLocal runs q over the local segment files as one index (global doc
// ids, segments in name order), opened with one block cache and one decoder
// pool.
func runQueryLocal(ctx context.Context, e *env, f *queryFlags, label string, paths []string, q string, o reader.Options) (err error) {
	o.BlockCache = reader.NewBlockCache(0)
	if o.Decoders, err = reader.NewDecoders(o.Limits, 0); err != nil {
		return err
	}
	ns := namedSegments{names: paths, local: true}
	defer func() {
		for _, s := range ns.segs {
			s.Close()
		}
	}()
	for _, p := range paths {
		s, err := openSegment(p, o)
		if err != nil {
			return err
		}
		ns.segs = append(ns.segs, s)
	}
	return queryMany(ctx, e, f, &ns, q, label, 0)
}
