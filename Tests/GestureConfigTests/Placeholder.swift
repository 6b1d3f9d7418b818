// Tests for GestureConfig live in this folder.
