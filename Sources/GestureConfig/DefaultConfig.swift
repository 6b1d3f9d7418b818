// GENERATED from config/default.yaml — do not edit here. A test checks the two
// are the same; regenerate with:
//   { sed -n 1,5p Sources/GestureConfig/DefaultConfig.swift; echo 'let defaultConfigYAML = ##"""'; cat config/default.yaml; echo; echo '"""##'; } > /tmp/d && mv /tmp/d Sources/GestureConfig/DefaultConfig.swift

/// The built-in default: used when no config file exists on the search path.
let defaultConfigYAML = ##"""
# gestured — default configuration.
#
# Copy it to ~/.config/gestured/config.yaml and edit; `gestured check` validates
# it and `gestured run --dry-run` shows what each gesture would run. The reference
# of every key is docs/CONFIG.md.
#
# Commands run through /bin/sh -c. They see the gesture in environment variables
# (GESTURE_NAME, GESTURE_FINGERS, GESTURE_DIRECTION, GESTURE_DX_MM, GESTURE_STEP,
# ...): use "$GESTURE_STEP" in a command; gesture values are never pasted into it.

settings:
  command-timeout: 10s   # a command still running after this is killed
  max-children: 8        # most commands running at once

gestures:
  # --- Workspaces: 3-finger swipes, touchpad and touchscreen ---------------
  # gestured asks the running desktop itself, with no command and no shortcut:
  # sway and i3 over their IPC, Hyprland over its socket, KDE Plasma through
  # KWin's shortcuts on D-Bus, GNOME through gestured's Shell extension, other
  # X11 window managers through EWMH. `gestured check` says whether yours can.
  # GNOME's and Plasma's own touchpad swipes may switch too: there, add
  # `device: touchscreen` to these two.
  - name: workspace-next
    gesture: swipe
    fingers: 3
    direction: left
    command: {workspace: next}

  - name: workspace-previous
    gesture: swipe
    fingers: 3
    direction: right
    command: {workspace: previous}

  # --- More examples: remove the '#' in front of a block to use it ----------

  # Pinch on the touchscreen: zoom in or out in steps (Ctrl+plus / Ctrl+minus).
  # - name: zoom
  #   gesture: pinch
  #   fingers: 2
  #   device: touchscreen
  #   every: 1.25x
  #   update: {keys: ctrl+equal, reverse: ctrl+minus}

  # 3-finger horizontal pan: the Alt+Tab window switcher. Alt goes down when the
  # pan begins, each 20 mm right is a Tab (left: Shift+Tab), Alt comes up at lift.
  # - name: switch-windows
  #   gesture: pan
  #   fingers: 3
  #   axis: horizontal
  #   every: 20mm
  #   hold: alt
  #   update: {keys: tab, reverse: shift+tab}

  # 4-finger hold: open the overview.
  # - name: overview
  #   gesture: hold
  #   fingers: 4
  #   min-duration: 0.5s
  #   command: {keys: super}            # KDE: qdbus org.kde.kglobalaccel /component/kwin invokeShortcut Overview

  # 3-finger tap: middle click.
  # - name: middle-click
  #   gesture: tap
  #   fingers: 3
  #   command: {button: middle}

  # Swipe in from the left edge of the touchscreen: open the launcher.
  # - name: launcher
  #   gesture: edgepan
  #   edge: left
  #   min-distance: 15mm
  #   command: rofi -show drun

  # 3-finger vertical pan: volume, one 5 % step per 8 mm, up is louder;
  # reversing mid-gesture turns it back down. GESTURE_STEP is 1 or -1,
  # GESTURE_STEP_SIGN is + or -.
  # - name: volume
  #   gesture: pan
  #   fingers: 3
  #   axis: vertical
  #   device: touchscreen
  #   every: 8mm
  #   update: wpctl set-volume -l 1.0 @DEFAULT_AUDIO_SINK@ "5%$GESTURE_STEP_SIGN"

"""##
