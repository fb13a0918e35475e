"""Clusters drawn by their makeup (pindrop 0.3's cluster summaries): the category field's values
numbered by the plugin, each cluster's shares, colour, count and tooltip, checked against an
oracle that reads the cluster's members' attributes from the layer itself. Skipped with a library
older than 0.3 (no pindrop_map_cluster_summary)."""
import os
import unittest
from collections import Counter

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from tests import test_pindrop_drag as base  # noqa: E402
from tests.test_pindrop_drag import CanvasCase, ROOT  # noqa: E402

from qgis.core import QgsFeatureRequest, QgsProject, QgsVectorLayer  # noqa: E402
from qgis.PyQt.QtCore import QEvent, QPointF, Qt  # noqa: E402
from qgis.PyQt.QtGui import QMouseEvent  # noqa: E402
from qgis.PyQt.QtWidgets import QApplication  # noqa: E402

import pindrop  # noqa: E402

LAWNDALE = (ROOT / ".." / "shared" / "data" / "la_trees_geojson" / "lawndale.geojson").resolve()


def setUpModule():
    base.setUpModule()


@unittest.skipUnless(hasattr(pindrop.Map, "cluster_summary"), "pindrop before 0.3: no cluster summaries")
@unittest.skipUnless(LAWNDALE.exists(), "the Lawndale inventory is not at ../shared/data")
class ClusterMakeup(CanvasCase):
    resolution = 12.0            # Mercator metres per pixel: Lawndale in a few clusters
    centre = (-118.3535, 33.8870)

    def setUp(self):
        self.layer = QgsVectorLayer(str(LAWNDALE), "lawndale", "ogr")
        self.assertTrue(self.layer.isValid())
        for key, value in (("pindrop/category_field", "BOTANICAL_"), ("pindrop/value_field", "ID"),
                           ("pindrop/noun", "trees"), ("pindrop/categories_are", "species")):
            self.layer.setCustomProperty(key, value)
        QgsProject.instance().addMapLayer(self.layer)
        self.addCleanup(QgsProject.instance().removeMapLayer, self.layer.id())
        self.canvas = self.make_canvas(self.layer)
        self.t = self.tool(self.canvas, self.layer)
        self.t.pins.wait()
        self.t._redraw()
        # The oracle's numbering: most frequent first, ties by name, from 1.
        counts = Counter(f["BOTANICAL_"] for f in self.layer.getFeatures() if f["BOTANICAL_"])
        self.names = ["(none)"] + sorted(counts, key=lambda c: (-counts[c], c))

    def members(self, key):
        ids = [int(i) for i in self.t.map.cluster_members(key)]
        return list(self.layer.getFeatures(QgsFeatureRequest().setFilterFids(ids)))

    def test_each_cluster_has_its_members_shares_colour_and_summary(self):
        from pindrop_drag.cluster_makeup import PALETTE
        self.assertEqual(self.t.pins.category_names, self.names)
        self.assertGreater(len(self.t.clusters), 3)
        for c, item in zip(self.t.clusters, self.t._clusters.items):
            members = self.members(c.key)
            self.assertEqual(len(members), c.count)
            counts = Counter(f["BOTANICAL_"] for f in members if f["BOTANICAL_"])
            order = sorted(counts, key=lambda n: (-counts[n], self.names.index(n)))
            # The ring: the six biggest shares in order, the rest as one grey share.
            shares = [(PALETTE[(self.names.index(n) - 1) % len(PALETTE)], counts[n] / c.count) for n in order[:6]]
            rest = sum(counts[n] for n in order[6:]) + (c.count - sum(counts.values()))
            if rest:
                shares.append(("#9a9a9a", rest / c.count))
            self.assertEqual([s[0] for s in item[3]], [s[0] for s in shares])
            for (_, a), (_, b) in zip(item[3], shares):
                self.assertAlmostEqual(a, b, delta=1e-12)
            self.assertEqual(item[2], c.count)
            # The tooltip's words.
            mean = sum(f["ID"] for f in members) / len(members)
            top = order[0]
            words = [f"{c.count:,} trees", f"{len(counts):,} species",
                     f"mostly {top}" if counts[top] * 2 < c.count else f"{counts[top] * 100 // c.count} % {top}",
                     f"mean ID {round(mean):,}" if mean >= 100 else f"mean ID {mean:.3g}"]
            self.assertEqual(self.t.summary(c.key, c.count), " · ".join(words))

    def test_an_edit_of_the_category_reaches_the_cluster(self):
        c = max(self.t.clusters, key=lambda c: c.count)
        members = self.members(c.key)
        f = members[0]
        rare = self.names[-1]
        self.layer.startEditing()
        self.assertTrue(self.layer.changeAttributeValue(f.id(), self.layer.fields().indexOf("BOTANICAL_"), rare))
        self.t._redraw()
        c2 = next(d for d in self.t.clusters if f.id() in set(int(i) for i in self.t.map.cluster_members(d.key)))
        expected = Counter(self.layer.getFeature(g.id())["BOTANICAL_"] for g in self.members(c2.key))
        got = {self.names[k]: n for k, n in self.t.map.cluster_categories(c2.key, as_dict=True).items() if k}
        self.assertEqual(got, {k: n for k, n in expected.items() if k})
        self.assertEqual(got[rare], Counter(g["BOTANICAL_"] for g in members)[rare] + 1)
        self.layer.rollBack()

    def test_hovering_a_cluster_shows_what_it_holds(self):
        c = max(self.t.clusters, key=lambda c: c.count)
        QApplication.sendEvent(self.canvas.viewport(), QMouseEvent(QEvent.MouseMove, QPointF(c.x + 2, c.y - 1),
                                                                   Qt.NoButton, Qt.NoButton, Qt.NoModifier))
        self.assertEqual(self.t._tooltip, self.t.summary(c.key, c.count))
        QApplication.sendEvent(self.canvas.viewport(), QMouseEvent(QEvent.MouseMove, QPointF(3, 3),
                                                                   Qt.NoButton, Qt.NoButton, Qt.NoModifier))
        self.assertIsNone(self.t._tooltip)



def oracle_words(c, members, names, noun="trees"):
    """The tooltip a cluster or stack should have, from its members' attributes as the layer
    holds them (not from pindrop): count, species, the dominant one, the mean ID, one spot."""
    counts = Counter(f["BOTANICAL_"] for f in members if f["BOTANICAL_"])
    order = sorted(counts, key=lambda n: (-counts[n], names.index(n)))
    mean = sum(f["ID"] for f in members) / len(members)
    top = order[0]
    words = [f"{c.count:,} {noun}", f"{len(counts):,} species",
             f"mostly {top}" if counts[top] * 2 < c.count else f"{counts[top] * 100 // c.count} % {top}",
             f"mean ID {round(mean):,}" if mean >= 100 else f"mean ID {mean:.3g}"]
    if len({(round(f.geometry().asPoint().x(), 12), round(f.geometry().asPoint().y(), 12)) for f in members}) == 1:
        words.append("all on one spot")
    return counts, order, " · ".join(words)


@unittest.skipUnless(hasattr(pindrop.Map, "cluster_summary") and hasattr(pindrop.Map, "open_stack"),
                     "pindrop before 0.3: no cluster summaries or stacks on tap")
@unittest.skipUnless(LAWNDALE.exists(), "the Lawndale inventory is not at ../shared/data")
class StackMakeup(CanvasCase):
    """A collapsed stack's marker is drawn by its makeup as a cluster's is: the colour of its
    trees' dominant species, the ring of the shares, the tooltip of what it holds."""
    resolution = 2.0               # street zoom: no clusters, Lawndale's stacks as markers
    centre = (-118.3520, 33.8870)  # replaced by the 305-tree spot in setUp

    def setUp(self):
        from qgis.core import QgsSettings
        QgsSettings().remove("pindrop/spread_on_tap")  # the default: stacks open on tap
        self.addCleanup(QgsSettings().remove, "pindrop/spread_on_tap")
        spots = Counter((round(f.geometry().asPoint().x(), 12), round(f.geometry().asPoint().y(), 12))
                        for f in QgsVectorLayer(str(LAWNDALE), "lawndale", "ogr").getFeatures())
        self.centre, n = spots.most_common(1)[0]
        self.assertEqual(n, 305)
        ClusterMakeup.setUp(self)

    members = ClusterMakeup.members

    def stacks(self):
        return [(c, item) for c, item in zip(self.t.clusters, self.t._clusters.items)
                if c.flags & pindrop.CLUSTER_STACK]

    def test_a_stack_marker_has_its_trees_colour_ring_and_summary(self):
        from pindrop_drag.cluster_makeup import PALETTE
        stacks = self.stacks()
        # The 305-tree and the 261-tree stacks lie within hit_radius: one marker of 566.
        self.assertIn(305 + 261, [c.count for c, _ in stacks])
        for c, item in stacks:
            self.assertTrue(item[4])
            members = self.members(c.key)
            self.assertEqual(len(members), c.count)
            _, _, words = oracle_words(c, members, self.names)
            # The shares by category code (0: no species, grey), most trees first, ties by code;
            # the six biggest in order, the rest as one grey share.
            codes = Counter(self.names.index(f["BOTANICAL_"]) if f["BOTANICAL_"] else 0 for f in members)
            order = sorted(codes, key=lambda k: (-codes[k], k))
            colour = lambda k: PALETTE[(k - 1) % len(PALETTE)] if k else "#9a9a9a"  # noqa: E731
            shares = [(colour(k), codes[k] / c.count) for k in order[:6]]
            rest = sum(codes[k] for k in order[6:])
            if rest:
                shares.append(("#9a9a9a", rest / c.count))
            self.assertEqual([s[0] for s in item[3]], [s[0] for s in shares], f"stack of {c.count}")
            for (_, a), (_, b) in zip(item[3], shares):
                self.assertAlmostEqual(a, b, delta=1e-12)
            self.assertEqual(self.t.summary(c.key, c.count), words)

    def test_the_305_stack_marker_is_painted_in_its_dominant_species_colour(self):
        from qgis.PyQt.QtGui import QColor, QImage, QPainter
        from pindrop_drag.cluster_makeup import PALETTE
        from pindrop_drag.drawing import ClusterOverlay
        c = next(c for c, _ in self.stacks() if c.count == 305 + 261)  # the 305 and the 261 merged
        counts, order, _ = oracle_words(c, self.members(c.key), self.names)
        want = QColor(PALETTE[(self.names.index(order[0]) - 1) % len(PALETTE)])
        size = self.canvas.mapSettings().outputSize()
        image = QImage(size.width(), size.height(), QImage.Format_ARGB32)
        image.fill(QColor(255, 255, 255))
        # The marker alone.
        item = next(i for k, i in self.stacks() if k.key == c.key)
        self.t._clusters.set_items([item])
        painter = QPainter(image)
        self.t._clusters.paint(painter, None)
        painter.end()
        r = ClusterOverlay.radius(c.count)
        # A pixel of the disc off the count.
        got = image.pixelColor(round(c.x - 0.65 * r), round(c.y + 0.6 * r))
        for g, w in ((got.red(), want.red()), (got.green(), want.green()), (got.blue(), want.blue())):
            self.assertAlmostEqual(g, (w * 215 + 255 * 40) / 255, delta=3)

    def test_hovering_a_stack_shows_what_it_holds(self):
        c = next(c for c, _ in self.stacks() if c.count == 305 + 261)  # the 305 and the 261 merged
        QApplication.sendEvent(self.canvas.viewport(), QMouseEvent(QEvent.MouseMove, QPointF(c.x + 2, c.y - 1),
                                                                   Qt.NoButton, Qt.NoButton, Qt.NoModifier))
        _, _, words = oracle_words(c, self.members(c.key), self.names)
        self.assertEqual(self.t._tooltip, words + " · click to open the stack")


class BadgesApart(CanvasCase):
    """At the cluster-expansion scale on Lawndale (1:5,295, street zoom: the stacks as markers),
    no two badges the tool draws overlap (drawing.py, `ClusterOverlay.fitted_radii`): pindrop
    keeps their centres hit_radius (22 px) apart, and the tool draws a badge whose neighbour is
    near smaller, so that what each paints (its disc, outline, second disc, ring) stays within half
    the distance to its nearest one. Checked over nine views that tile Lawndale geometrically, and
    on the painted image of the middle one (no pixel painted by two badges)."""
    resolution = 2.0
    centre = (-118.3535, 33.8870)
    SCALE = 5295

    def setUp(self):
        from qgis.core import QgsSettings
        QgsSettings().remove("pindrop/spread_on_tap")  # the plugin's defaults
        self.addCleanup(QgsSettings().remove, "pindrop/spread_on_tap")
        ClusterMakeup.setUp(self)

    def test_no_two_badges_overlap_at_1_to_5295(self):
        from qgis.core import QgsPointXY
        from pindrop_drag.drawing import ClusterOverlay
        shrunk = drawn = 0
        for dx in (-0.012, 0, 0.012):
            for dy in (-0.008, 0, 0.008):
                self.canvas.setCenter(QgsPointXY(*base.TO_3857.transform(self.centre[0] + dx, self.centre[1] + dy)))
                self.canvas.zoomScale(self.SCALE)
                QApplication.processEvents()
                self.assertAlmostEqual(self.canvas.scale(), self.SCALE, delta=1)
                self.t._redraw()
                overlay = self.t._clusters
                items, radii = overlay.items, overlay.radii
                self.assertEqual(len(radii), len(items))
                drawn += len(items)
                for i, (x, y, count, shares, is_stack) in enumerate(items):
                    self.assertGreaterEqual(radii[i], 6, f"badge of {count}")
                    shrunk += radii[i] < ClusterOverlay.radius(count, is_stack)
                    reach = ClusterOverlay.reach(radii[i], shares, is_stack)
                    for j in range(i + 1, len(items)):
                        other = ClusterOverlay.reach(radii[j], items[j][3], items[j][4])
                        d = ((items[j][0] - x) ** 2 + (items[j][1] - y) ** 2) ** 0.5
                        self.assertLessEqual(reach + other, d + 1e-9, f"badges of {count} and {items[j][2]} overlap")
                if dx == dy == 0:
                    self.assert_painted_apart(overlay)
        self.assertGreater(drawn, 100, "Lawndale's stacks are drawn as badges at this scale")
        self.assertGreater(shrunk, 0, "some badges stand near others and are drawn smaller")

    def assert_painted_apart(self, overlay):
        """Each badge painted alone on a transparent image: no pixel is painted by two of them."""
        from qgis.PyQt.QtGui import QColor, QImage, QPainter
        size = self.canvas.mapSettings().outputSize()
        owner = {}
        for k, item in enumerate(overlay.items):
            badge, half = overlay._badge(item[2], item[3], item[4], overlay.radii[k])
            image = QImage(size.width(), size.height(), QImage.Format_ARGB32)
            image.fill(QColor(0, 0, 0, 0))
            painter = QPainter(image)
            painter.drawPixmap(int(round(item[0] - half)), int(round(item[1] - half)), badge)
            painter.end()
            x0, y0 = max(0, int(item[0] - half)), max(0, int(item[1] - half))
            for py in range(y0, min(size.height(), int(item[1] + half) + 1)):
                for px in range(x0, min(size.width(), int(item[0] + half) + 1)):
                    if image.pixelColor(px, py).alpha() > 64:
                        self.assertNotIn((px, py), owner, f"badges {owner.get((px, py))} and {k} paint one pixel")
                        owner[(px, py)] = k


if __name__ == "__main__":
    unittest.main()
