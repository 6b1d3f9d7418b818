# gestured — build, test, install.
#   make run       build and run the daemon in the foreground with the default config
#   make test      install missing Debian packages (as root), then run every test
#   make install   release binary (static Swift stdlib), unit, config, man pages
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
DEB_PACKAGES := pkg-config libevdev-dev libudev-dev libmtdev-dev libyaml-dev

.PHONY: all build release run test deps install uninstall clean

all: build

# Installs what the build needs when run as root; otherwise says exactly what to run.
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "missing Debian packages; run:"; echo "  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --static-swift-stdlib

run: build
	$(SWIFT) run gestured run --config config/default.yaml

test: deps
	$(SWIFT) test

clean:
	rm -rf .build

# End-to-end scenarios in a VM (Tests/vm/README.md): the real daemon against uinput
# devices on Debian's kernel. Says so and skips where qemu cannot run.
.PHONY: e2e
e2e:
	Tests/vm/scenarios
