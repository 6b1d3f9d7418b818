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
  # GNOME has no command that switches workspaces, so there gestured presses
  # GNOME's own shortcut, Super+Page_Down / Super+Page_Up, on its virtual
  # keyboard (this needs write access to /dev/uinput: `make install` sets it
  # up; `gestured check` says what is missing). On a touchpad GNOME's own
  # 3-finger swipe already does this, so these two act on touchscreens.
  - name: workspace-next-gnome
    gesture: swipe
    fingers: 3
    direction: left
    desktop: GNOME
    device: touchscreen
    command: {keys: super+Page_Down}

  - name: workspace-previous-gnome
    gesture: swipe
    fingers: 3
    direction: right
    desktop: GNOME
    device: touchscreen
    command: {keys: super+Page_Up}

  # Elsewhere the command asks whichever desktop is running. To pin one, replace
  # it with the line for your desktop:
  #   GNOME:         command: {keys: super+Page_Down}      (Wayland and X11)
  #   KDE Plasma:    qdbus org.kde.kglobalaccel /component/kwin invokeShortcut "Switch One Desktop to the Right"
  #   sway:          swaymsg workspace next_on_output
  #   Hyprland:      hyprctl dispatch workspace e+1
  #   i3:            i3-msg workspace next
  #   other X11 WMs: xdotool set_desktop --relative 1       (any EWMH window manager)
  - name: workspace-next
    gesture: swipe
    fingers: 3
    direction: left
    command: &switch-workspace |
      case "$GESTURE_DIRECTION" in left) step=1 ;; *) step=-1 ;; esac
      if [ -n "$HYPRLAND_INSTANCE_SIGNATURE" ]; then
        hyprctl dispatch workspace "e$( [ $step = 1 ] && echo + || echo - )1"
      elif [ -n "$SWAYSOCK" ]; then
        swaymsg workspace "$( [ $step = 1 ] && echo next || echo prev )_on_output"
      elif [ -n "$I3SOCK" ] || i3-msg -t get_version >/dev/null 2>&1; then
        i3-msg workspace "$( [ $step = 1 ] && echo next || echo prev )"
      elif [ "$XDG_CURRENT_DESKTOP" = KDE ]; then
        "$(command -v qdbus6 || echo qdbus)" org.kde.kglobalaccel /component/kwin invokeShortcut \
          "Switch One Desktop to the $( [ $step = 1 ] && echo Right || echo Left )"
      else
        xdotool set_desktop --relative -- "$step"
      fi

  - name: workspace-previous
    gesture: swipe
    fingers: 3
    direction: right
    command: *switch-workspace

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
