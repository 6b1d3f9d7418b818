// The GestureConfig layer: see docs/ARCHITECTURE.md.
