// Package budget holds the .prx codec policy a segment is written with
// (Policy) and what it did (Outcome): for each eligible .prx window, whether
// to store the smallest frame (zstd) or the faster frame (PFOR or RAW). The
// decisions are pure logic over exact frame sizes (no I/O, no clock); the
// writer applies them.
//
// An eligible window is one that got a zstd frame (plain payload of 512 bytes or
// more, not a singleton). For such a window, with exact frame sizes:
//
//	fast     = min(pfor, raw)              (PFOR on ties; RAW when PFOR is no candidate)
//	smallest = min(fast, zstd)             (zstd only when strictly smaller)
//	trade    = fast - zstd  if zstd is the smallest, else 0
//	saving   = floor(100 * trade / fast)   (0..99)
//
// Policies (Policy; the numbers are what a segment records and the CLI's
// --prx-zstd-min-saving takes, see FromPercents):
//
//	Policy{}                     -1  the default: the per-field budget with P = DefaultBudgetPercent (8)
//	{Kind: Budget, Percent: P}   -1  the per-field budget with P = 0..100 (0: a zero allowance)
//	{Kind: Smallest}              0  always the smallest frame
//	{Kind: FixedShare, Percent: share}  1..100  store fast when zstd is the smallest and saving < share
//
// A Percent of 0 is never "the default": the default is its own kind, the
// zero value.
//
// The budget keeps, per field, the number n of eligible windows seen, the
// sum of their smallest frames, the bytes already traded (spent) and a histogram of
// trade bytes by saving percent. After adding a window, the allowance is
// A = P% of sumSmallest (integers: 100*x <= P*sumSmallest). The share is the prior
// 30 while n <= 64, afterwards the largest s in 0..100 with sum(hist[b], b < s) <= A.
// A window is stored fast iff zstd is the smallest, saving < s and spent+trade <= A.
// Hence spent <= P% of sumSmallest after every window, in any order of windows.
//
// See docs/BUDGET.md for a worked example.
package budget
