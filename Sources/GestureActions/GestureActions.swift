// The GestureActions layer: see docs/ARCHITECTURE.md.
