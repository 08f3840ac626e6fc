#!/usr/bin/env bash
# Installs what the Lucene side of the peer benchmark needs (Debian): a JDK
# and liblucene8-java (Lucene 8.8.1; its jars are named *-8.7.0.jar).
# Without them `go run ./cmd/peers` runs snii and bleve only and says so.
set -euo pipefail
if command -v javac >/dev/null && ls /usr/share/java/lucene-core-*.jar >/dev/null 2>&1; then
  echo "java and liblucene8-java present"; exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "run as root (apt-get install -y default-jdk-headless liblucene8-java)" >&2; exit 1
fi
apt-get update -qq
apt-get install -y -qq default-jdk-headless liblucene8-java
