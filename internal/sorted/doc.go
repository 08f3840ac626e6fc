// Package sorted holds the kernels over ascending lists that several packages
// share: SeekGE, the gallop of every intersection of doc ids and positions.
package sorted
