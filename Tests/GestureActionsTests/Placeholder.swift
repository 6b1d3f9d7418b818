// Tests for GestureActions live in this folder.
