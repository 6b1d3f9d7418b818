# gestured — build, test, install.
#   make run       debug build (.build/debug/gestured) in the foreground, default config
#   make test      install missing Debian packages (as root), then run every test:
#                  swift test, the systemd unit check, the live view in headless Chromium and Firefox,
#                  the VM end-to-end scenarios, the Debian package with lintian (make deb-lint),
#                  and today's desktops in cached Debian 13 and testing roots (make desktops),
#                  quietly (logs in .build/test-logs); the last line sums it all up
#   make desktops  that last part alone (Tests/roots/README.md; as root)
#   make e2e       the VM scenarios alone (Tests/vm/README.md)
#   make release   the release binary (static Swift stdlib), as yourself
#   make install   release binary, unit, config, man pages (copies only after make release),
#                  and the GNOME Shell extension (make install-gnome-extension alone: just that)
#   make bench     the performance budget (docs/PERFORMANCE.md); ends with one summary line
#   make link-order  Sources/gestured/hot.order again, from the release binary run under callgrind
#                  (what start-up and recognition run, laid out together: docs/PERFORMANCE.md)
#   make fuzz      mutation fuzzing, 20 000 seeded cases (Tests/Fuzz), then 20 000 hostile requests to
#                  gestured ui; each part ends with one summary line
#   make fuzz-import  the same for `gestured import`'s cases alone (FUZZ_SEED, FUZZ_CASES)
#   make deb       the Debian package (debian/, dpkg-buildpackage -us -uc -b) in .build/deb/, as yourself
#   make deb-lint  make deb, then lintian: an error fails (make test runs this)
#   make deb-check make deb-lint, then install, run, upgrade and purge it in a fresh Debian 12
#                  root without the toolchain (as root, with fresh-machine: Tests/deb/README.md)
PREFIX ?= /usr/local
DESTDIR ?=
SYSCONFDIR ?= /etc
# Stripped by default (8.6 MB instead of 14.8 MB); packagers who keep symbols: make install STRIP=
STRIP ?= -s
BINDIR := $(PREFIX)/bin
USERUNITDIR := $(PREFIX)/lib/systemd/user
MANDIR := $(PREFIX)/share/man
DOCDIR := $(PREFIX)/share/doc/gestured
# gestured's GNOME Shell extension (gnome-extension/, docs/GNOME.md), where GNOME finds
# system-wide extensions. GNOME_SHELL_SERIES: 43 (GNOME 43, 44), 45 (45 to 50), auto
# (the installed gnome-shell's form; 45 when there is none), or both: each form in
# GNOME_EXTENSION_FORMSDIR with gnome-extension/series, for a package whose postinst
# links the one the installed GNOME loads (the Debian package's, debian/postinst).
GNOME_EXTENSION_UUID := gestured@gestured.github.io
GNOME_EXTENSIONDIR := $(PREFIX)/share/gnome-shell/extensions/$(GNOME_EXTENSION_UUID)
GNOME_EXTENSION_FORMSDIR := $(PREFIX)/share/gestured/gnome-shell-extension
GNOME_SHELL_SERIES ?= auto
# /dev/uinput for the input group, and the module loaded at boot (keys:, button:, scroll:).
UDEVRULESDIR ?= $(SYSCONFDIR)/udev/rules.d
MODULESLOADDIR ?= $(SYSCONFDIR)/modules-load.d
SWIFT ?= swift
# libstdc++-12-dev: the release build links the Swift runtime statically, which needs it.
DEB_PACKAGES := pkg-config libevdev-dev libudev-dev libmtdev-dev libyaml-dev libstdc++-12-dev
# The headers of the libraries the X11 and KWin focus sources and the X11 rotation
# source dlopen (CDesktop).
DEB_PACKAGES += libxcb1-dev libxcb-randr0-dev libsystemd-dev
# libmicrohttpd's header: the HTTP server of `gestured ui` (CMicrohttpd), which the ui
# loads with dlopen (libmicrohttpd12 at run time, needed by `gestured ui` only). The
# binary links libevdev2, libudev1, libmtdev1 and libyaml-0-2: a package's Depends.
DEB_PACKAGES += libmicrohttpd-dev
# make test also installs the real compositors and clients the focused-app tests drive (sway as nobody via setpriv).
test: DEB_PACKAGES += sway foot xvfb i3-wm xterm util-linux dbus-daemon
# socat: ControlSocketTests speaks to the control socket as another user, raw.
test: DEB_PACKAGES += socat
# The package part: make deb-lint (dpkg-dev is build-essential's).
test: DEB_PACKAGES += debhelper lintian
# ... and openbox with xprop (x11-utils) for the EWMH desktop actions (DesktopActionsCompositorTests),
# xrandr (x11-xserver-utils) for the X11 rotation source's (RotationSourceTests).
test: DEB_PACKAGES += openbox x11-utils x11-xserver-utils
# ... and a headless GNOME Shell 43 with a fake logind (GNOMEShellTests, as nobody too).
test: DEB_PACKAGES += gnome-shell python3-dbusmock libglib2.0-bin
# Only what the tests use: gnome-shell's Recommends would bring gdm3 and gnome-control-center.
test: APT_FLAGS := --no-install-recommends
APT_FLAGS ?=
# and the browsers the live view's tests drive (Tests/Browser): headless Chromium through
# Selenium, and Firefox ESR over its own Marionette socket (Debian 12 has no geckodriver).
test: DEB_PACKAGES += chromium chromium-driver python3-selenium firefox-esr

.PHONY: all build release run test test-deps deps install install-gnome-extension uninstall clean check-unit bench link-order fuzz fuzz-quick deb deb-lint deb-check

all: build

# Installs what the build needs when run as root; otherwise says exactly what to run.
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_FLAGS) $$missing >/dev/null || exit 1; \
	  else \
	    echo "missing Debian packages; run:"; echo "  sudo apt-get install -y$(if $(APT_FLAGS), $(APT_FLAGS))$$missing"; exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

# The release binary is a file target: `make install` after `make release` (or
# `sudo make install` after a user's build) copies files and runs no compiler. It has
# a build directory of its own, so a plain `swift build -c release` (whose binary needs
# the toolchain's Swift runtime: a RUNPATH into it) can never stand in for it, and
# scripts/check-static-binary refuses one that needs any Swift library.
SOURCES := Package.swift $(shell find Sources -type f)
RELEASE_BUILD := .build/static
RELEASE_BIN := $(RELEASE_BUILD)/release/gestured
# Only the shipped product: the test, bench and fuzz executables are not built here.
release: $(RELEASE_BIN)
# SwiftPM does not know gestured's link reads Sources/gestured/hot.order (Package.swift):
# a binary older than it is removed, and so linked again. $(call relink-if-reordered,BINARY)
relink-if-reordered = [ ! -e $(1) ] || [ Sources/gestured/hot.order -ot $(1) ] || rm -f $(1)
$(RELEASE_BIN): $(SOURCES)
	@$(MAKE) --no-print-directory deps
	@$(call relink-if-reordered,$@)
	$(SWIFT) build -c release --static-swift-stdlib --product gestured --scratch-path $(RELEASE_BUILD)
	scripts/check-static-binary $@
	@touch $@

# The functions start-up and recognition run, first in the link (Package.swift): after
# changes to them, so that the daemon's resident memory stays under budget (make bench).
link-order: $(RELEASE_BIN)
	scripts/generate-link-order.sh $(CURDIR)/$(RELEASE_BIN) > $(RELEASE_BUILD)/hot.order
	mv $(RELEASE_BUILD)/hot.order Sources/gestured/hot.order
	@echo "Sources/gestured/hot.order: $$(wc -l < Sources/gestured/hot.order) functions; make release again to lay them out"

run: build
	.build/debug/gestured run --config config/default.yaml

# Every part runs quietly into .build/test-logs/; one line each, then the summary.
test: deps test-deps
	@Tests/run-parts \
	  "swift test" '$(SWIFT) test --skip Todays' \
	  "unit check" '$(MAKE) --no-print-directory check-unit' \
	  "fuzz (short)" '$(MAKE) --no-print-directory fuzz-quick' \
	  "browser" 'Tests/Browser/run' \
	  "e2e (VM)" 'Tests/vm/scenarios' \
	  "package" '$(MAKE) --no-print-directory deb-lint' \
	  "desktops" 'Tests/roots/desktops'

# What the tests use beyond the build (the VM's own packages: Tests/vm/prepare):
# pgrep (procps), systemd-analyze (systemd), which checks the unit's man pages with man (man-db).
# Installed as root, else named.
TEST_PACKAGES := procps systemd man-db
test-deps:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(TEST_PACKAGES)" || \
	  echo "(the parts that need them say so and are skipped)"

# systemd-analyze verify on the unit as `make install` writes it (man pages included).
check-unit: build
	@tmp=$$(mktemp -d); \
	mkdir -p $$tmp/man/man1 $$tmp/man/man5; cp man/gestured.1 $$tmp/man/man1/; cp man/gestured.yaml.5 $$tmp/man/man5/; \
	sed "s|/usr/local/bin/gestured|$$(pwd)/.build/debug/gestured|" systemd/gestured.service > $$tmp/gestured.service; \
	if ! command -v systemd-analyze >/dev/null || ! command -v man >/dev/null; then \
	  echo "check-unit: skipped: needs systemd-analyze and man (sudo apt-get install systemd man-db)"; rm -rf $$tmp; exit 0; fi; \
	if MANPATH=$$tmp/man:/usr/share/man systemd-analyze verify $$tmp/gestured.service; then \
	  echo "check-unit: systemd/gestured.service: systemd-analyze verify clean"; rm -rf $$tmp; \
	else echo "check-unit: systemd-analyze verify failed"; rm -rf $$tmp; exit 1; fi

# Release build as `make install` makes it (static Swift stdlib), in its own build
# directory; gestured-bench then measures it and the library types it is built from.
BENCH_BUILD ?= .build/bench
bench: deps
	@$(call relink-if-reordered,$(BENCH_BUILD)/release/gestured)
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(BENCH_BUILD)
	$(BENCH_BUILD)/release/gestured-bench --root $(CURDIR)

# Mutation fuzzing (issue 10): every recording in both formats and every config,
# mutated and run through `gestured replay`/`check` in child processes with a
# per-case timeout; crashes and hangs are reported with their kept input and the
# command that re-runs the case. FUZZ_SEED=N for another seed; exit 1 on a finding.
# Then `gestured ui`'s HTTP side (issue 35): as many hostile and mutated requests to
# a real ui, each on its own connection (Tests/Fuzz/Harness/HTTPFuzz.swift).
FUZZ_SEED ?= 1
FUZZ_CASES ?= 20000
fuzz: build
	.build/debug/gestured-fuzz --root $(CURDIR) --seed $(FUZZ_SEED) --cases $(FUZZ_CASES)
	.build/debug/gestured-fuzz --http --root $(CURDIR) --seed $(FUZZ_SEED) --cases $(FUZZ_CASES)

# Only `gestured import`'s cases (issue 35): the other tools' configs mutated in their
# own syntax (Tests/Fuzz/Harness/ImportCases.swift) and imported; an import that fails
# on a file it can read, or writes a config `check` refuses, is a finding too.
.PHONY: fuzz-import
fuzz-import: build
	.build/debug/gestured-fuzz --root $(CURDIR) --seed $(FUZZ_SEED) --cases $(FUZZ_CASES) --only import

# The short seeded run `make test` includes (about 15 s on 2 cores).
fuzz-quick: build
	.build/debug/gestured-fuzz --root $(CURDIR) --seed 1 --cases 300

install: $(RELEASE_BIN) install-gnome-extension
	install -Dm755 $(STRIP) $(RELEASE_BIN) $(DESTDIR)$(BINDIR)/gestured
	install -d $(DESTDIR)$(USERUNITDIR)
	sed "s|/usr/local/bin/gestured|$(BINDIR)/gestured|" systemd/gestured.service > $(DESTDIR)$(USERUNITDIR)/gestured.service
	chmod 644 $(DESTDIR)$(USERUNITDIR)/gestured.service
	install -Dm644 man/gestured.1 $(DESTDIR)$(MANDIR)/man1/gestured.1
	install -Dm644 man/gestured.yaml.5 $(DESTDIR)$(MANDIR)/man5/gestured.yaml.5
	install -Dm644 config/default.yaml $(DESTDIR)$(DOCDIR)/config.yaml.example
	install -Dm644 docs/CONFIG.md $(DESTDIR)$(DOCDIR)/CONFIG.md
	install -Dm644 udev/70-gestured-uinput.rules $(DESTDIR)$(UDEVRULESDIR)/70-gestured-uinput.rules
	install -Dm644 udev/71-gestured-virtual-touchpad.rules $(DESTDIR)$(UDEVRULESDIR)/71-gestured-virtual-touchpad.rules
	install -Dm644 udev/gestured-uinput.conf $(DESTDIR)$(MODULESLOADDIR)/gestured-uinput.conf
	@# Takes effect now where we can (root, no DESTDIR): the module, then the rule on its node.
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then \
	  modprobe uinput 2>/dev/null || true; \
	  udevadm control --reload 2>/dev/null && udevadm trigger --sysname-match=uinput 2>/dev/null || true; \
	fi
	@# The system-wide config is the user's to edit: never overwritten.
	@if [ ! -e $(DESTDIR)$(SYSCONFDIR)/gestured/config.yaml ]; then \
	  install -Dm644 config/default.yaml $(DESTDIR)$(SYSCONFDIR)/gestured/config.yaml; fi
	@echo "installed; now: systemctl --user daemon-reload && systemctl --user enable --now gestured"
	@echo "on GNOME, also: gnome-extensions enable $(GNOME_EXTENSION_UUID) (after logging out and in once)"

# Written from gnome-extension/gestured.js in the form the installed GNOME loads.
install-gnome-extension:
ifeq ($(GNOME_SHELL_SERIES),both)
	gnome-extension/build 43 $(DESTDIR)$(GNOME_EXTENSION_FORMSDIR)/43
	gnome-extension/build 45 $(DESTDIR)$(GNOME_EXTENSION_FORMSDIR)/45
	install -Dm755 gnome-extension/series $(DESTDIR)$(GNOME_EXTENSION_FORMSDIR)/series
else
	gnome-extension/build $(GNOME_SHELL_SERIES) $(DESTDIR)$(GNOME_EXTENSIONDIR)
endif

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gestured $(DESTDIR)$(USERUNITDIR)/gestured.service
	rm -f $(DESTDIR)$(MANDIR)/man1/gestured.1 $(DESTDIR)$(MANDIR)/man5/gestured.yaml.5
	rm -rf $(DESTDIR)$(DOCDIR) $(DESTDIR)$(GNOME_EXTENSIONDIR) $(DESTDIR)$(GNOME_EXTENSION_FORMSDIR)
	rm -f $(DESTDIR)$(UDEVRULESDIR)/70-gestured-uinput.rules $(DESTDIR)$(UDEVRULESDIR)/71-gestured-virtual-touchpad.rules
	rm -f $(DESTDIR)$(MODULESLOADDIR)/gestured-uinput.conf
	@echo "left $(SYSCONFDIR)/gestured/config.yaml in place (remove it by hand if you wish)"

clean:
	rm -rf .build

# The Debian package, built the way a Debian maintainer builds it (debian/rules: dh,
# compat 13, around make release and make install). dpkg-buildpackage writes to ..;
# the files are moved to .build/deb/. Missing build packages: installed as root, else named.
DEB_OUT := .build/deb
DEB_VERSION = $(shell dpkg-parsechangelog -SVersion 2>/dev/null)
deb:
	@command -v dpkg-checkbuilddeps >/dev/null || $(MAKE) --no-print-directory deps DEB_PACKAGES="dpkg-dev debhelper $(DEB_PACKAGES)"
	@unmet=$$(dpkg-checkbuilddeps 2>&1 | sed -n 's/.*Unmet build dependencies: //p' | sed 's/ *([^)]*)//g; s/debhelper-compat/debhelper/'); \
	[ -z "$$unmet" ] || $(MAKE) --no-print-directory deps DEB_PACKAGES="$$unmet"
	dpkg-buildpackage -us -uc -b
	@mkdir -p $(DEB_OUT) && rm -f $(DEB_OUT)/gestured*_amd64.* && \
	mv ../gestured_$(DEB_VERSION)_amd64.* ../gestured-dbgsym_$(DEB_VERSION)_amd64.* $(DEB_OUT)/
	@ls -l $(DEB_OUT)/gestured_$(DEB_VERSION)_amd64.deb

# lintian on the package: an error fails; the warnings left are listed with why in Tests/deb/README.md.
# Last line (make test's "package" part shows it): the .deb's size, lintian's counts and tags.
deb-lint: deb
	@$(MAKE) --no-print-directory deps DEB_PACKAGES=lintian
	@lintian --fail-on error --display-info $(DEB_OUT)/gestured_$(DEB_VERSION)_amd64.changes >$(DEB_OUT)/lintian.txt 2>&1; \
	status=$$?; cat $(DEB_OUT)/lintian.txt; \
	tags=$$(grep '^[EW]: ' $(DEB_OUT)/lintian.txt | cut -d' ' -f3 | sort -u | paste -sd' '); \
	echo "summary: gestured_$(DEB_VERSION)_amd64.deb $$(stat -c %s $(DEB_OUT)/gestured_$(DEB_VERSION)_amd64.deb) bytes;" \
	  "lintian: $$(grep -c '^E: ' $(DEB_OUT)/lintian.txt) errors, $$(grep -c '^W: ' $(DEB_OUT)/lintian.txt) warnings$${tags:+ ($$tags)}"; \
	[ $$status = 0 ]

# ... then installed with apt on a fresh Debian 12 root without the Swift toolchain, run,
# upgraded, removed and purged (Tests/deb/README.md). Needs root and fresh-machine.
deb-check: deb-lint
	Tests/deb/install-check $(DEB_OUT)

# Today's desktops (GNOME 48 and 50, KWin, labwc, sway 1.12, Hyprland) in Debian roots
# that Tests/roots/build makes once and caches (/var/cache/gestured-roots), with the
# package make deb builds installed in them (Tests/roots/README.md). As root.
.PHONY: desktops
desktops:
	Tests/roots/desktops

# End-to-end scenarios in a VM (Tests/vm/README.md): the real daemon against uinput
# devices on Debian's kernel. Says so and skips where qemu cannot run.
.PHONY: e2e
e2e:
	Tests/vm/scenarios
