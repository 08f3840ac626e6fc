// Package tmpfile creates the hidden temp files of builds and merges so that
// the leftovers of a killed run can be found and removed safely later.
//
// A run that writes temp files in a directory first claims it: it creates a
// lock file ".snii-lock-ID" there and holds an exclusive flock(2) on it while
// it runs. Every temp file it creates is named PREFIX + ID + "-" + random,
// e.g. ".snii-run-4172936-83710221". The kernel drops the lock when the
// process ends, however it ends (kill -9 included), so Clean can tell a live
// run's files from a dead one's: it removes the files of an ID only when it
// can take the lock of ".snii-lock-ID" itself. Files without a lock file (or
// named by older versions, without an ID) are never touched.
package tmpfile
