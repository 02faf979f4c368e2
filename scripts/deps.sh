#!/usr/bin/env bash
# Installs what the build and the tests need, on a fresh Debian machine.
# Safe to run again: each step skips what is already there.
#
#   scripts/deps.sh go        Go modules and the tools pinned in go.mod
#   scripts/deps.sh go-modules  Go modules only: what building and running the CLI needs (make serve)
#   scripts/deps.sh npm       the TypeScript MCP SDK for the interop test (interop/ts)
#   scripts/deps.sh python    the Python MCP SDK for the interop test (interop/python/.venv)
#   scripts/deps.sh apt       Debian packages of the Android host tests, and python3-venv (root or sudo)
#   scripts/deps.sh packaging the tools the npm, PyPI and Claude Desktop packages are built and tried with
#                             (packaging/tools: @anthropic-ai/mcpb, hatchling, uv, pipx, and the pip
#                             wheel pipx's pip backend installs offline), pinned
#   scripts/deps.sh zig       zig's C compiler, pinned (scripts/ziglang-requirements.txt), for the host engines
#   scripts/deps.sh qemu      qemu-user and Debian's arm64 JDK, to run the linux-aarch64 engine (root or sudo)
#   scripts/deps.sh maven     the Maven repository the Android tests run from offline
#   scripts/deps.sh maven-repo  prints where that repository is
#   scripts/deps.sh apt-sources-native-only
#                             limits the apt sources in $APT_ETC (/etc/apt) that name no architecture
#                             to this machine's own, as qemu does on Ubuntu before it adds arm64
#   scripts/deps.sh all       everything the full test suite needs
set -euo pipefail
cd "$(dirname "$0")/.."

need() { command -v "$1" >/dev/null 2>&1 || { echo "deps: $1 is not installed; $2" >&2; exit 1; }; }

# root_for WHAT: sets SUDO to what runs a command as root ("" as root, sudo otherwise), or stops
# saying that installing WHAT needs root.
root_for() {
	need apt-get "install these Debian packages by hand: $1"
	SUDO=""
	if [ "$(id -u)" != 0 ]; then
		need sudo "installing $1 needs root: run 'make deps' as root, or install sudo"
		SUDO=sudo
	fi
}

go_modules() {
	need go "install Go 1.26 or newer from https://go.dev/dl/"
	echo "deps: downloading Go modules"
	go mod download
}

go_deps() {
	go_modules
	# Building the pinned tools now keeps the first test run from stalling.
	go build -o /dev/null honnef.co/go/tools/cmd/staticcheck golang.org/x/mobile/cmd/gobind github.com/rhysd/actionlint/cmd/actionlint
}

npm_deps() {
	need node "install Node.js 18 or newer (Debian: apt-get install nodejs npm)"
	need npm "install npm (Debian: apt-get install npm)"
	# npm ci installs exactly the committed lock file. npm records what it
	# installed in node_modules/.package-lock.json; when that is newer than
	# the lock file, the install is current and is kept.
	local dir=interop/ts
	if [ -f "$dir/node_modules/.package-lock.json" ] && [ ! "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
		echo "deps: $dir/node_modules is up to date"
		return
	fi
	echo "deps: npm ci in $dir"
	(cd "$dir" && npm ci --no-audit --no-fund)
}

# The Python client runs in a virtual environment of its own. pip installs exactly the pinned
# requirements, each checked against its hash; a copy of them in the environment marks it current
# until they change.
python_deps() {
	need python3 "install Python 3.11 or newer (Debian: apt-get install python3 python3-venv)"
	local dir=interop/python
	if [ -x "$dir/.venv/bin/python" ] && cmp -s "$dir/requirements.txt" "$dir/.venv/requirements.txt"; then
		echo "deps: $dir/.venv is up to date"
		return
	fi
	if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
		echo "deps: the Python MCP SDK needs Python 3.11 or newer, and python3 is $(python3 --version 2>&1)" >&2
		exit 1
	fi
	if ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
		echo "deps: python3 cannot make a virtual environment; install python3-venv (scripts/deps.sh apt does)" >&2
		exit 1
	fi
	echo "deps: installing $dir/requirements.txt in $dir/.venv"
	rm -rf "$dir/.venv"
	python3 -m venv "$dir/.venv"
	"$dir/.venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes -r "$dir/requirements.txt"
	cp "$dir/requirements.txt" "$dir/.venv/requirements.txt"
}

# The Android layer is tested on the host (docs/internals/host-harness.md): aapt compiles the resources against
# framework-res.apk, zig builds gobind's glue (the host engine, scripts/host-engine.sh), and a JDK 17
# and Maven run Robolectric.
apt_deps() {
	local missing=() p
	for p in aapt android-framework-res; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
	done
	command -v gcc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
	# make lint checks the scripts; the release scripts' tests pack archives.
	command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
	command -v zip >/dev/null 2>&1 || missing+=(zip)
	command -v unzip >/dev/null 2>&1 || missing+=(unzip)
	# The Python interop client's virtual environment (python_deps).
	python3 -c 'import ensurepip' >/dev/null 2>&1 || missing+=(python3 python3-venv)
	command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
	command -v mvn >/dev/null 2>&1 || missing+=(maven)
	if [ ${#missing[@]} -eq 0 ]; then
		echo "deps: the Android host test packages are installed"
	else
		root_for "${missing[*]}"
		echo "deps: apt-get install ${missing[*]}"
		$SUDO apt-get update -qq
		# --no-upgrade: never upgrade what is installed already (a JDK, say) as a side effect.
		$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --no-upgrade "${missing[@]}"
	fi
	local version
	version=$(javac -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')
	if [ "${version:-0}" -lt 17 ]; then
		echo "deps: Robolectric needs a JDK 17 or newer, and javac is version ${version:-unknown};" \
			"install openjdk-17-jdk-headless and put it first on PATH (or set JAVA_HOME)" >&2
		exit 1
	fi
}

# The packages' tools (packaging/tools), each exactly as pinned: npm ci installs the MCP Bundle tool
# from its lock file; pip installs hatchling, uv and pipx by hash into build/tools/packaging, a
# virtual environment of their own, which a copy of the requirements marks current. Linux only, as
# the pinned uv wheels are (the release builds the packages on Linux).
packaging_deps() {
	need node "install Node.js 18 or newer (Debian: apt-get install nodejs npm)"
	need npm "install npm (Debian: apt-get install npm)"
	need python3 "install Python 3 (Debian: apt-get install python3 python3-venv)"
	local dir=packaging/tools venv=build/tools/packaging
	if [ -f "$dir/node_modules/.package-lock.json" ] && [ ! "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
		echo "deps: $dir/node_modules is up to date"
	else
		echo "deps: npm ci in $dir"
		(cd "$dir" && npm ci --no-audit --no-fund)
	fi
	if [ "$(uname -s)" != Linux ]; then
		echo "deps: the packages are built on Linux; on $(uname -s) only the MCP Bundle tool is installed"
		return
	fi
	if [ -x "$venv/bin/uv" ] && cmp -s "$dir/requirements.txt" "$venv/requirements.txt"; then
		echo "deps: $venv is up to date"
	else
		echo "deps: installing $dir/requirements.txt in $venv"
		rm -rf "$venv"
		python3 -m venv "$venv"
		"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: --require-hashes \
			-r "$dir/requirements.txt"
		cp "$dir/requirements.txt" "$venv/requirements.txt"
	fi
	local wheels=build/tools/pypi-wheels
	if cmp -s "$dir/offline-wheels.txt" "$wheels/offline-wheels.txt"; then
		echo "deps: $wheels is up to date"
		return
	fi
	echo "deps: downloading $dir/offline-wheels.txt into $wheels"
	rm -rf "$wheels"
	"$venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: --require-hashes \
		-r "$dir/offline-wheels.txt" -d "$wheels"
	cp "$dir/offline-wheels.txt" "$wheels/offline-wheels.txt"
}

# zig's C compiler from PyPI's ziglang wheel, exactly the pinned version and hashes, into
# build/tools/ziglang (scripts/host-engine.sh looks there). A copy of the requirements marks it
# current until they change. Linux only: the macOS engines are built on Macs with their own compiler.
zig_deps() {
	local dir=build/tools/ziglang req=scripts/ziglang-requirements.txt
	if [ "$(uname -s)" != Linux ]; then
		echo "deps: zig is needed on Linux only (the engines for Linux and Windows are cross-built there)"
		return
	fi
	if [ -x "$dir/ziglang/zig" ] && cmp -s "$req" "$dir/requirements.txt"; then
		echo "deps: $dir is up to date"
		return
	fi
	need python3 "install Python 3 (Debian: apt-get install python3 python3-pip)"
	echo "deps: installing zig ($req) in $dir"
	rm -rf "$dir"
	python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --only-binary=:all: --require-hashes \
		--target "$dir" -r "$req"
	cp "$req" "$dir/requirements.txt"
	"$dir/ziglang/zig" version >/dev/null
}

# qemu-user and Debian's arm64 JDK (multiarch), so that the linux-aarch64 engine is loaded and called
# on an x86-64 machine (scripts/qemu-engine.sh). Only the arm64 JDK's runtime is installed, under
# /usr/lib/jvm/java-17-openjdk-arm64; the machine's own java stays the default.
qemu_deps() {
	if [ "$(uname -m)" != x86_64 ] || [ "$(uname -s)" != Linux ]; then
		echo "deps: qemu is needed only on x86-64 Linux, to run the linux-aarch64 engine"
		return
	fi
	if command -v qemu-aarch64 >/dev/null 2>&1 && [ -x /usr/lib/jvm/java-17-openjdk-arm64/bin/java ]; then
		echo "deps: qemu-user and the arm64 JDK are installed"
		return
	fi
	root_for "qemu-user openjdk-17-jre-headless:arm64"
	echo "deps: apt-get install qemu-user openjdk-17-jre-headless:arm64"
	# Debian serves arm64 from the same mirror; Ubuntu (the hosted runners) from ports.ubuntu.com
	# only, so every source the machine has is limited to its own architecture (the runners carry
	# others' too, Microsoft's among them, which serve no arm64), and the ports are added for arm64.
	if grep -q '^ID=ubuntu' /etc/os-release 2>/dev/null && [ ! -e /etc/apt/sources.list.d/mobilemcp-arm64.sources ]; then
		local codename
		codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
		APT_ETC=/etc/apt apt_sources_native_only
		printf 'Types: deb\nURIs: http://ports.ubuntu.com/ubuntu-ports\nSuites: %s %s-updates %s-security\nComponents: main universe\nArchitectures: arm64\n' \
			"$codename" "$codename" "$codename" | $SUDO tee /etc/apt/sources.list.d/mobilemcp-arm64.sources >/dev/null
	fi
	$SUDO dpkg --add-architecture arm64
	# A source that serves no arm64 fails the update for its arm64 lists only: the install below
	# then says plainly whether what it needs is there.
	if ! $SUDO apt-get update -qq; then
		echo "deps: apt-get update could not read every source (above); going on with those it read" >&2
	fi
	# The arm64 JDK registers its java as an alternative; the machine's own stays the one on PATH.
	local java
	java=$(readlink -f "$(command -v java)")
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --no-upgrade \
		qemu-user openjdk-17-jre-headless:arm64
	[ "$(readlink -f "$(command -v java)")" = "$java" ] || $SUDO update-alternatives --set java "$java"
}

# apt_sources_native_only: limits every apt source under $APT_ETC that names no architecture to
# this machine's own (dpkg --print-architecture, or $NATIVE_ARCH), so that adding a foreign
# architecture asks only the sources that name it. One-line sources (sources.list, *.list) get
# [arch=...]; deb822 sources (*.sources) an Architectures: field in each stanza that has none.
apt_sources_native_only() {
	local arch=${NATIVE_ARCH:-$(dpkg --print-architecture)} f
	for f in "$APT_ETC/sources.list" "$APT_ETC"/sources.list.d/*.list; do
		[ -e "$f" ] || continue
		# deb URL ... -> deb [arch=A] URL ...; deb [opts] URL ... -> deb [arch=A opts] URL ... (unless opts name arch=).
		$SUDO sed -i -E \
			-e '/^[[:space:]]*deb(-src)?[[:space:]]+\[[^]]*arch=/b' \
			-e "s/^([[:space:]]*deb(-src)?[[:space:]]+)\[/\1[arch=$arch /" \
			-e "t" \
			-e "s/^([[:space:]]*deb(-src)?[[:space:]]+)([^[[:space:]])/\1[arch=$arch] \3/" "$f"
	done
	for f in "$APT_ETC"/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		awk -v arch="$arch" '
			function flush() {
				for (i = 1; i <= n; i++) {
					print lines[i]
					if (lines[i] ~ /^Types:/ && !has) print "Architectures: " arch
				}
				n = 0; has = 0
			}
			/^[[:space:]]*$/ { flush(); print; next }
			{ lines[++n] = $0; if ($0 ~ /^Architectures:/) has = 1 }
			END { flush() }
		' "$f" >"$f.native"
		$SUDO tee "$f" <"$f.native" >/dev/null
		rm -f "$f.native"
	done
}

# The local Maven repository, where Maven puts it: MAVEN_OPTS may move it with -Dmaven.repo.local=DIR;
# otherwise it is ~/.m2/repository under Java's user.home, which Java reads from the user's account,
# not from $HOME.
maven_repo() {
	local repo
	repo=$(sed -n 's/.*-Dmaven\.repo\.local=\([^ ]*\).*/\1/p' <<<"${MAVEN_OPTS:-}")
	if [ -z "$repo" ]; then
		need java "run scripts/deps.sh apt"
		repo="$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *user\.home = //p')/.m2/repository"
	fi
	echo "$repo"
}

# Fills the Maven repository so that the Android tests run with mvn -o. dependency:go-offline is
# not enough: it misses what Maven resolves only while building (plexus-utils for old plugins, and
# android-all-instrumented, which is copied rather than depended on). So this runs the real build of
# every module once, online, selecting no test; the sdk compiles gobind's Java, hence host-engine.sh
# tests first. A stamp in the repository, named after the hash of all of android/'s poms, skips it until
# one of them changes.
maven_deps() {
	need mvn "run scripts/deps.sh apt"
	local stamp
	stamp="$(maven_repo)/.mobilemcp-primed-$(cat android/pom.xml android/*/pom.xml | sha256sum | cut -c1-16)"
	if [ -e "$stamp" ]; then
		echo "deps: the Maven repository has the Android tests' dependencies"
		return
	fi
	echo "deps: filling the Maven repository for the Android tests (about 500 MB when empty)"
	scripts/host-engine.sh tests
	# Through install: make test-installed installs the libraries (the jar and install plugins).
	# dependency:build-classpath too: make release-check and make bench-android list classpaths offline.
	mvn -B -q -f android/pom.xml install dependency:build-classpath -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false \
		-Dmdep.outputFile=target/primed-classpath.txt
	touch "$stamp"
}

case "${1:-all}" in
go) go_deps ;;
go-modules) go_modules ;;
npm) npm_deps ;;
python) python_deps ;;
apt) apt_deps ;;
packaging) packaging_deps ;;
zig) zig_deps ;;
qemu) qemu_deps ;;
maven) maven_deps ;;
maven-repo) maven_repo ;;
apt-sources-native-only) SUDO=${SUDO-}; APT_ETC=${APT_ETC:-/etc/apt} apt_sources_native_only ;;
all) go_deps && npm_deps && apt_deps && python_deps && packaging_deps && zig_deps && qemu_deps && maven_deps ;;
*) echo "usage: scripts/deps.sh [go|go-modules|npm|python|apt|packaging|zig|qemu|maven|maven-repo|all]" >&2; exit 2 ;;
esac
