"""The keyboard drag and the stacks that open on tap, in the QGIS tool (pindrop 0.3): key events
sent to a real QgsMapCanvas as Qt delivers them, positions checked against the canvas's extent and
pyproj, the layer's edit buffer read back. Skipped with a library older than 0.3."""
import math
import os
import unittest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from tests import test_pindrop_drag as base  # noqa: E402
from tests.test_pindrop_drag import THREE, CanvasCase, haversine, lawndale_stack  # noqa: E402

from qgis.core import QgsFeatureRequest, QgsSettings  # noqa: E402
from qgis.PyQt.QtCore import QEvent, Qt  # noqa: E402
from qgis.PyQt.QtGui import QKeyEvent  # noqa: E402
from qgis.PyQt.QtWidgets import QApplication  # noqa: E402

import pindrop  # noqa: E402


def setUpModule():
    base.setUpModule()


def press(canvas, key, modifiers=Qt.NoModifier):
    QApplication.sendEvent(canvas, QKeyEvent(QEvent.KeyPress, key, modifiers))


@unittest.skipUnless(hasattr(pindrop.Map, "focus_step"), "pindrop before 0.3: no keyboard drag")
class KeyboardDrag(CanvasCase):
    def test_tab_alt_space_arrows_enter_move_the_point_and_ctrl_z_undoes_it(self):
        layer = self.make_layer(THREE)
        canvas = self.make_canvas(layer)
        tool = self.tool(canvas, layer)
        layer.startEditing()
        extent = canvas.extent()
        press(canvas, Qt.Key_Tab)
        focus = tool.map.focus
        self.assertEqual(focus.kind, "pin")
        name = next(n for n, fid in self.fids.items() if fid == focus.id)
        self.assertEqual(tool.announcements[-1], f"Point {focus.id}")
        start = self.point(layer, name)
        px, py = self.to_pixel(canvas, *start)
        self.clock.t = 100
        press(canvas, Qt.Key_Space, Qt.AltModifier)
        self.assertEqual(tool.announcements[-1], f"Point {focus.id} lifted")
        for k in range(3):
            self.clock.t = 200 + 50 * k
            press(canvas, Qt.Key_Right)
        self.clock.t = 400
        press(canvas, Qt.Key_Up, Qt.ShiftModifier)
        self.assertTrue(tool.announcements[-1].startswith("moved "))
        self.assertEqual(self.point(layer, name), start)          # nothing written before the drop
        self.clock.t = 500
        press(canvas, Qt.Key_Return)
        self.assertEqual(tool.announcements[-1], f"Point {focus.id} dropped")
        self.assertEqual(canvas.extent(), extent)                  # neither Tab nor arrows panned
        expected = self.to_lonlat(canvas, px + 3, py - 10)
        moved = self.point(layer, name)
        self.assertAlmostEqual(moved[0], expected[0], delta=1e-9)
        self.assertAlmostEqual(moved[1], expected[1], delta=1e-9)
        self.assertEqual([e.cause for e in tool.events if e.type == "MOVED"], ["KEYBOARD"])
        # The announcement of the move: 13 px at 0.25 Mercator m/px, 10 up and 3 right.
        words = [a for a in tool.announcements if a.startswith("moved ")][-1]
        (lon1, lat1), (lon2, lat2) = map(math.radians, start), map(math.radians, moved)
        bearing = math.degrees(math.atan2(math.sin(lon2 - lon1) * math.cos(lat2), math.cos(lat1) * math.sin(lat2)
                                          - math.sin(lat1) * math.cos(lat2) * math.cos(lon2 - lon1))) % 360
        compass = ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"]
        self.assertEqual(words, f"moved {haversine(start, moved):,.0f} m {compass[int((bearing + 22.5) // 45) % 8]}")
        self.clock.t = 600
        press(canvas, Qt.Key_Z, Qt.ControlModifier)                # through the layer's edit buffer
        self.assertEqual(self.point(layer, name), start)
        self.assertTrue(tool.announcements[-1].startswith("Undone"))

    def test_escape_puts_a_keyboard_lifted_point_back(self):
        layer = self.make_layer(THREE)
        canvas = self.make_canvas(layer)
        tool = self.tool(canvas, layer)
        layer.startEditing()
        press(canvas, Qt.Key_Tab)
        press(canvas, Qt.Key_Tab)
        fid = tool.map.focus.id
        start = tool.map.position(fid)
        self.clock.t = 100
        press(canvas, Qt.Key_Space, Qt.AltModifier)
        self.clock.t = 200
        press(canvas, Qt.Key_Left, Qt.ShiftModifier)
        self.clock.t = 300
        press(canvas, Qt.Key_Escape)
        self.assertEqual(tool.announcements[-1], f"Point {fid} back where it was")
        self.assertEqual(tool.map.position(fid), start)
        self.assertEqual(layer.undoStack().count(), 0)

    def test_shift_tab_goes_back_and_the_focus_ring_is_drawn(self):
        layer = self.make_layer(THREE)
        canvas = self.make_canvas(layer)
        tool = self.tool(canvas, layer)
        press(canvas, Qt.Key_Tab)
        first = tool.map.focus.id
        press(canvas, Qt.Key_Tab)
        self.assertNotEqual(tool.map.focus.id, first)
        press(canvas, Qt.Key_Backtab, Qt.ShiftModifier)
        self.assertEqual(tool.map.focus.id, first)
        x, y, r = tool._clusters.focus
        self.assertAlmostEqual(x, tool.map.focus.x)
        self.assertAlmostEqual(y, tool.map.focus.y)


    def test_l_lifts_the_focused_point_as_alt_space_does_and_no_shortcut_takes_it(self):
        layer = self.make_layer(THREE)
        canvas = self.make_canvas(layer)
        tool = self.tool(canvas, layer)
        layer.startEditing()
        press(canvas, Qt.Key_Tab)
        fid = tool.map.focus.id
        name = next(n for n, i in self.fids.items() if i == fid)
        start = self.point(layer, name)
        px, py = self.to_pixel(canvas, *start)
        override = QKeyEvent(QEvent.ShortcutOverride, Qt.Key_L, Qt.NoModifier, "l")
        override.ignore()
        QApplication.sendEvent(canvas, override)
        self.assertTrue(override.isAccepted())          # an application shortcut on L would not fire
        self.clock.t = 100
        press(canvas, Qt.Key_L)
        self.assertEqual(tool.announcements[-1], f"Point {fid} lifted")
        self.clock.t = 200
        press(canvas, Qt.Key_Right, Qt.ShiftModifier)
        self.clock.t = 300
        press(canvas, Qt.Key_Return)
        self.assertEqual(tool.announcements[-1], f"Point {fid} dropped")
        expected = self.to_lonlat(canvas, px + 10, py)
        moved = self.point(layer, name)
        self.assertAlmostEqual(moved[0], expected[0], delta=1e-9)
        self.assertAlmostEqual(moved[1], expected[1], delta=1e-9)
        # Ctrl+L is not the lift key: it is left to QGIS.
        press(canvas, Qt.Key_Tab)
        n = len(tool.announcements)
        press(canvas, Qt.Key_L, Qt.ControlModifier)
        self.assertEqual(len(tool.announcements), n)

    def test_the_focused_and_lifted_point_stay_in_sight_below_the_message_bar(self):
        """Issue 36: Tab focused a point 4 px below the canvas top, under the message bar; Shift+Up
        moved it off the canvas; Enter dropped it unseen. The view follows it instead."""
        from qgis.gui import QgsMessageBar
        layer = self.make_layer(THREE[:1])
        canvas = self.make_canvas(layer)
        lon, lat = THREE[0][1]
        e, upp = canvas.extent(), canvas.mapUnitsPerPixel()
        x, y = base.TO_3857.transform(lon, lat)
        # The point 4 px below the top of the canvas, the canvas otherwise as it was.
        canvas.setExtent(type(e)(e.xMinimum(), y + 4 * upp - e.height(), e.xMaximum(), y + 4 * upp))
        QApplication.processEvents()
        bar = QgsMessageBar(canvas)  # as QGIS's main window lays its message bar over the canvas
        bar.setGeometry(0, 0, canvas.width(), 40)
        tool = self.tool(canvas, layer)
        tool.cover = bar
        self.assertLess(self.to_pixel(canvas, lon, lat)[1], 10)
        bar.pushInfo("pindrop", "a message")
        QApplication.processEvents()
        bar_bottom = bar.geometry().bottom()

        def seen(fid):
            px, py = self.to_pixel(canvas, *tool.map.display_position(fid))
            return 0 <= px < canvas.width() and bar_bottom < py < canvas.height()

        layer.startEditing()
        press(canvas, Qt.Key_Tab)
        fid = tool.map.focus.id
        self.assertTrue(seen(fid), self.to_pixel(canvas, lon, lat))
        self.clock.t = 100
        press(canvas, Qt.Key_L)
        for k in range(8):  # 80 px up: off the canvas's top without the view following
            self.clock.t = 200 + 50 * k
            press(canvas, Qt.Key_Up, Qt.ShiftModifier)
            QApplication.processEvents()
            self.assertTrue(seen(fid), (k, self.to_pixel(canvas, *tool.map.display_position(fid)), tool.map.position(fid), [e.type for e in tool.events[-3:]]))
        self.clock.t = 800
        press(canvas, Qt.Key_Return)
        self.assertEqual(tool.announcements[-1], f"Point {fid} dropped")
        dropped = layer.getFeature(fid).geometry().asPoint()
        self.assertGreater(haversine((dropped.x(), dropped.y()), (lon, lat)), 80 * 0.25 * 0.8)
        px, py = self.to_pixel(canvas, dropped.x(), dropped.y())
        self.assertGreater(py, bar_bottom)                          # the drop was made in sight


@unittest.skipUnless(hasattr(pindrop.Map, "open_stack"), "pindrop before 0.3: no stacks on tap")
class StacksOnTap(CanvasCase):
    resolution = 2.0

    def setUp(self):
        QgsSettings().remove("pindrop/spread_on_tap")  # the default: on
        self.addCleanup(QgsSettings().remove, "pindrop/spread_on_tap")
        QgsSettings().setValue("pindrop/stack_layout", "ring")  # the ground's ring (the default: a spiral)
        self.addCleanup(QgsSettings().remove, "pindrop/stack_layout")

    def test_the_305_stack_is_one_marker_until_clicked_then_it_opens_fitted(self):
        spot, n, trees = lawndale_stack()
        self.centre = spot
        layer = self.make_layer(trees)
        canvas = self.make_canvas(layer)
        tool = self.tool(canvas, layer)
        stacks = [c for c in tool.clusters if c.flags & pindrop.CLUSTER_STACK]
        big = max(stacks, key=lambda c: c.count)
        self.assertEqual(big.count, 305 + 261)           # the 305 and the 261 stacks, within hit_radius: one
        self.assertEqual(tool.legs, [])                  # nothing spread while closed
        self.assertIsNotNone(tool.map.hit_test(big.x, big.y))  # a tree near the spot: pindrop would pick it
        members = set(int(i) for i in tool.map.cluster_members(big.key))
        self.assertLessEqual(members, tool.hidden)      # the layer does not draw them under the marker
        self.assertIn("566 points", tool.summary(big.key, big.count))
        # A click on the marker opens it: every tree inside the canvas, each drawn once, none
        # closer to another than the spacing (the ring of the layout setting is not used on tap).
        self.clock.t = 10
        self.mouse(canvas, "press", round(big.x), round(big.y))
        self.clock.t = 60
        self.mouse(canvas, "release", round(big.x), round(big.y))
        self.assertIn("STACK_OPENED", self.types(tool))   # the marker drawn on top took the click
        self.assertNotIn("SELECTED", self.types(tool))
        self.assertEqual(tool.announcements[-1], "stack of 566 points opened")
        to_lonlat = base.Transformer.from_crs("EPSG:3857", "EPSG:4326", always_xy=True)
        at_spot = [b for a, b in tool.legs if haversine(to_lonlat.transform(a.x(), a.y()), spot) < 0.01]
        self.assertEqual(len(at_spot), 305)
        m2p = canvas.getCoordinateTransform()
        opened = [m2p.transform(b) for a, b in tool.legs]
        self.assertEqual(len(opened), 566)
        for p in opened:
            self.assertTrue(0 <= p.x() <= canvas.width() and 0 <= p.y() <= canvas.height(), (p.x(), p.y()))
        self.assertGreater(min(math.hypot(p.x() - q.x(), p.y() - q.y())
                               for k, p in enumerate(opened) for q in opened[k + 1:]), 10)
        # Esc closes it again.
        self.clock.t = 100
        press(canvas, Qt.Key_Escape)
        self.assertIn("STACK_CLOSED", self.types(tool))

    def test_a_click_on_the_tree_beside_the_stack_picks_the_tree(self):
        spot, n, trees = lawndale_stack()
        self.centre = spot
        layer = self.make_layer(trees)
        canvas = self.make_canvas(layer)
        tool = self.tool(canvas, layer)
        big = max((c for c in tool.clusters if c.flags & pindrop.CLUSTER_STACK), key=lambda c: c.count)
        in_stacks = set()
        for c in tool.clusters:
            if c.flags & pindrop.CLUSTER_STACK:
                in_stacks.update(int(i) for i in tool.map.cluster_members(c.key))
        # The trees drawn on their own within the hit radius of the stack's marker, nearest first.
        near = sorted((math.hypot(v.x - big.x, v.y - big.y), v) for v in tool.map.frame(0)
                      if v.id not in in_stacks and math.hypot(v.x - big.x, v.y - big.y) <= 22)
        self.assertTrue(near, "a tree beside the 305-tree stack")
        v = near[0][1]
        self.clock.t = 10
        self.mouse(canvas, "press", round(v.x), round(v.y))
        self.clock.t = 60
        self.mouse(canvas, "release", round(v.x), round(v.y))
        self.clock.t = 700
        tool._run_timers(self.clock.t)
        tool._handle_events()
        self.assertNotIn("STACK_OPENED", self.types(tool))
        self.assertIn(v.id, [e.id for e in tool.events if e.type == "SELECTED"])

    def _beside(self, tool, marker):
        """The tree drawn on its own nearest to a marker, within the hit radius of it."""
        apart = set()
        for c in tool.clusters:
            if c.flags & pindrop.CLUSTER_STACK:
                apart.update(int(i) for i in tool.map.cluster_members(c.key))
        near = sorted((math.hypot(v.x - marker.x, v.y - marker.y), v.id, v) for v in tool.map.frame(0)
                      if v.id not in apart and math.hypot(v.x - marker.x, v.y - marker.y) <= 22)
        self.assertTrue(near, "a tree within the hit radius of the marker")
        return near[0][2]

    def test_on_a_read_only_layer_a_click_on_the_stack_beside_a_tree_opens_it(self):
        """Issue 24 (QGIS 6 with SPEC 22): the read-only refusal is for a press pindrop gives to a
        point; a press nearer the stack's marker than the tree beside it opens the stack."""
        spot, n, trees = lawndale_stack()
        self.centre = spot
        layer = self.make_layer(trees)
        layer.setReadOnly(True)
        canvas = self.make_canvas(layer)
        tool = self.tool(canvas, layer)
        self.assertEqual(len(tool.messages), 1)                 # said when the tool was picked
        big = max((c for c in tool.clusters if c.flags & pindrop.CLUSTER_STACK), key=lambda c: c.count)
        tree = self._beside(tool, big)
        # Three pixels from the marker towards the tree: the marker is the nearer target, and the
        # tree is within the hit radius too.
        d = math.hypot(tree.x - big.x, tree.y - big.y)
        x, y = round(big.x + 3 * (tree.x - big.x) / d), round(big.y + 3 * (tree.y - big.y) / d)
        self.assertLess(math.hypot(x - big.x, y - big.y), math.hypot(x - tree.x, y - tree.y))
        self.assertEqual(tool.map.hit_test(x, y), tree.id)      # the point hit test alone finds the tree
        self.clock.t = 10
        self.mouse(canvas, "press", x, y)
        self.clock.t = 60
        self.mouse(canvas, "release", x, y)
        self.assertIn("STACK_OPENED", self.types(tool))
        self.assertEqual(tool.announcements[-1], "stack of 566 points opened")  # merged with the 261
        self.assertEqual(len(tool.messages), 1, tool.messages)  # no "cannot be moved"

    def test_on_a_read_only_layer_a_press_on_the_tree_beside_the_stack_lifts_nothing(self):
        spot, n, trees = lawndale_stack()
        self.centre = spot
        layer = self.make_layer(trees)
        layer.setReadOnly(True)
        canvas = self.make_canvas(layer)
        tool = self.tool(canvas, layer)
        big = max((c for c in tool.clusters if c.flags & pindrop.CLUSTER_STACK), key=lambda c: c.count)
        tree = self._beside(tool, big)
        name = next(k for k, fid in self.fids.items() if fid == tree.id)
        start = self.point(layer, name)
        x, y = round(tree.x), round(tree.y)
        self.mouse(canvas, "press", x, y)
        for k in range(1, 6):
            self.clock.t = 16.0 * k
            self.mouse(canvas, "move", x + 20 * k, y)
        self.clock.t = 100
        self.mouse(canvas, "release", x + 100, y)
        types = self.types(tool)
        for kind in ("LIFTED", "DRAGGED", "DROPPED", "MOVED", "STACK_OPENED"):
            self.assertNotIn(kind, types)
        self.assertEqual(len(tool.messages), 2, tool.messages)
        self.assertIn(f"Point {tree.id} of 'trees' cannot be moved", tool.messages[1])
        self.assertEqual(self.point(layer, name), start)
        self.assertEqual(tool.map.position(tree.id), start)
        # The layer made editable again: the same tree drags.
        layer.setReadOnly(False)
        layer.startEditing()
        self.clock.t = 1000
        tool._redraw()
        tree = next(v for v in tool.map.frame(self.clock.t) if v.id == tree.id)
        x, y = round(tree.x), round(tree.y)
        self.mouse(canvas, "press", x, y)
        for k in range(1, 6):
            self.clock.t = 1000 + 16.0 * k
            self.mouse(canvas, "move", x + 20 * k, y)
        self.clock.t = 1100
        self.mouse(canvas, "release", x + 100, y)
        self.assertIn("MOVED", self.types(tool))
        self.assertNotEqual(self.point(layer, name), start)

    def test_on_a_read_only_layer_a_click_on_a_cluster_beside_a_tree_zooms_in(self):
        """The same for a cluster: Lawndale's trees at 5 m a pixel, one tree of a cluster
        selected (a selected point is drawn on its own) within the hit radius of the cluster
        left; a press nearer the cluster's circle zooms in."""
        import csv
        with open(base.TREES, newline="") as fh:
            trees = [(r["id"], (float(r["lon"]), float(r["lat"]))) for r in csv.DictReader(fh)]
        self.resolution, self.centre = 5.0, lawndale_stack()[0]
        layer = self.make_layer(trees)
        layer.setReadOnly(True)
        canvas = self.make_canvas(layer)
        tool = self.tool(canvas, layer)
        found = None
        for c in sorted((c for c in tool.clusters if not c.flags & pindrop.CLUSTER_STACK
                         and 60 < c.x < 740 and 60 < c.y < 540), key=lambda c: -c.count):
            for fid in tool.map.cluster_members(c.key):
                tx, ty = tool.map.to_screen(*tool.map.display_position(int(fid)))
                if 10 < math.hypot(tx - c.x, ty - c.y) <= 20:
                    tool.map.select(int(fid))
                    tool._redraw()
                    left = min(tool.clusters, key=lambda k: math.hypot(k.x - c.x, k.y - c.y))
                    tree = next(v for v in tool.map.frame(self.clock.t) if v.id == int(fid))
                    if not left.flags & pindrop.CLUSTER_STACK and 6 < math.hypot(tree.x - left.x, tree.y - left.y) <= 20:
                        found = left, tree
                        break
            if found:
                break
        self.assertIsNotNone(found, "a tree drawn within the hit radius of a cluster")
        c, tree = found
        d = math.hypot(tree.x - c.x, tree.y - c.y)
        x, y = round(c.x + 2 * (tree.x - c.x) / d), round(c.y + 2 * (tree.y - c.y) / d)
        self.assertLess(math.hypot(x - c.x, y - c.y), math.hypot(x - tree.x, y - tree.y))
        self.assertEqual(tool.map.hit_test(x, y), tree.id)
        before = canvas.mapUnitsPerPixel()
        self.clock.t = 10
        self.mouse(canvas, "press", x, y)
        self.clock.t = 60
        self.mouse(canvas, "release", x, y)
        self.assertIn("CLUSTER_TAPPED", self.types(tool))
        self.assertLess(canvas.mapUnitsPerPixel(), before)          # zoomed in to where it comes apart
        self.assertEqual(len(tool.messages), 1, tool.messages)

    def test_by_default_the_opened_305_stack_fits_the_canvas_at_street_zoom(self):
        """Issue 36: at street zoom the opened 305-tree stack was a 457 m ring running off the
        canvas. Opened on tap it fits the canvas, every tree inside it."""
        QgsSettings().remove("pindrop/stack_layout")
        spot, n, trees = lawndale_stack()
        self.centre = spot
        layer = self.make_layer(trees)
        canvas = self.make_canvas(layer)                    # 800 x 600 at 0.25 m a pixel
        tool = self.tool(canvas, layer)
        big = max((c for c in tool.clusters if c.flags & pindrop.CLUSTER_STACK), key=lambda c: c.count)
        self.clock.t = 10
        self.mouse(canvas, "press", round(big.x), round(big.y))
        self.clock.t = 60
        self.mouse(canvas, "release", round(big.x), round(big.y))
        self.assertIn("STACK_OPENED", self.types(tool))
        m2p = canvas.getCoordinateTransform()
        opened = [m2p.transform(b) for a, b in tool.legs]
        self.assertEqual(big.count, 305 + 261)              # the 261 stack within hit_radius: one
        self.assertEqual(len(opened), 305 + 261)
        for p in opened:
            self.assertTrue(0 <= p.x() <= canvas.width() and 0 <= p.y() <= canvas.height(), (p.x(), p.y()))

    def test_with_the_setting_off_stacks_are_spread_at_once(self):
        QgsSettings().setValue("pindrop/spread_on_tap", False)
        spot, n, trees = lawndale_stack()
        self.centre = spot
        layer = self.make_layer(trees)
        canvas = self.make_canvas(layer)
        tool = self.tool(canvas, layer)
        self.assertFalse(any(c.flags & pindrop.CLUSTER_STACK for c in tool.clusters))
        self.assertGreaterEqual(len(tool.legs), 305)


if __name__ == "__main__":
    unittest.main()
