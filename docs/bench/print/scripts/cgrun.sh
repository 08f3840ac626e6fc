#!/usr/bin/env bash
here=$(cd "$(dirname "$0")" && pwd)
cd "${DIR:?DIR: the directory of the segments and binaries}"
run() { name=$1; shift; GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=$DIR/cg-$name.out "$@" >/dev/null 2>$DIR/cg-$name.log; echo "== $name: $*"; "$here"/cgsplit.sh $DIR/cg-$name.out; }
run x16-server ./snii-branch query x16.snii --color never '"the server"'
run x16-deftest ./snii-branch query x16.snii --color never '"def test_"'
run x16-traceback ./snii-branch query x16.snii --color never '"Traceback (most recent call last)"'
run x16-count-deftest ./snii-branch query x16.snii --count '"def test_"'
run x16-re-traceback ./snii-branch grep --color never x16lines.snii 'Traceback \(most recent call last\)'
run x16-re-sympy ./snii-branch grep --color never x16lines.snii 'sympy/core/[a-z]+\.py'
run x4-logic ./snii-branch query x4.snii --color never '"the logic is"'
run x4-count-logic ./snii-branch query x4.snii --count '"the logic is"'
run x16-main-server ./snii-main query x16.snii --color never '"the server"'
