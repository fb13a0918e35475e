"""The Processing algorithm pindrop:spread, headless through processing.run, on Lawndale's street
trees (7937 points, 305 of them on one spot).

Run with Debian's python3 (python3-qgis), as `make test-qgis` does. The expected ring positions
come from the great-circle destination formula written here from its textbook form (the ring
rule: pin i of n at bearing 2πi/n, 1.5·n metres, sphere of radius 6378137 m).
"""
import csv
import math
import os
import sys
import tempfile
import unittest
from collections import Counter
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "examples" / "qgis"))
sys.path.insert(0, str(ROOT / "bindings" / "python"))
sys.path.append("/usr/share/qgis/python/plugins")  # QGIS's processing package

from qgis.core import (QgsApplication, QgsCoordinateReferenceSystem, QgsCoordinateTransform,  # noqa: E402
                       NULL, QgsFeature, QgsGeometry, QgsPointXY, QgsProcessingException,
                       QgsProcessingFeedback, QgsProject, QgsVectorLayer)

EARTH = 6378137.0
TREES = ROOT / "examples" / "data" / "lawndale_trees.csv"
APP = None
PROVIDER = None  # referenced here for as long as the registry uses it


def setUpModule():
    global APP, PROVIDER
    APP = QgsApplication.instance()
    if APP is None:  # another test module of this run may have started QGIS already
        QgsApplication.setPrefixPath("/usr", True)
        APP = QgsApplication([], False)
        APP.initQgis()
    from processing.core.Processing import Processing
    Processing.initialize()
    from pindrop_drag.processing_provider import PindropProvider
    registry = QgsApplication.processingRegistry()
    if registry.providerById("pindrop") is None:
        PROVIDER = PindropProvider()
        assert registry.addProvider(PROVIDER)


def destination(lon, lat, bearing, distance):
    """Great-circle destination point (lon, lat in degrees; bearing in radians from north)."""
    p1, l1, d = math.radians(lat), math.radians(lon), distance / EARTH
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(bearing))
    l2 = l1 + math.atan2(math.sin(bearing) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    return math.degrees(l2), math.degrees(p2)


def haversine(a, b):
    (lon1, lat1), (lon2, lat2) = map(math.radians, a), map(math.radians, b)
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH * math.asin(math.sqrt(h))


class Recorder(QgsProcessingFeedback):
    """Records progress; cancels once progress reaches `cancel_at` (percent), as the Cancel button does."""

    def __init__(self, cancel_at=None):
        super().__init__()
        self.progress = []
        self.cancel_at = cancel_at
        self.progressChanged.connect(self._on_progress)

    def _on_progress(self, value):
        self.progress.append(value)
        if self.cancel_at is not None and value >= self.cancel_at:
            self.cancel()


def read_trees():
    with open(TREES, newline="") as f:
        return [(int(r["id"]), float(r["lon"]), float(r["lat"]), r["species"]) for r in csv.DictReader(f)]


def tree_layer(rows, crs="EPSG:4326"):
    layer = QgsVectorLayer(f"Point?crs={crs}&field=id:integer&field=species:string", "trees", "memory")
    features = []
    for tree_id, x, y, species in rows:
        f = QgsFeature(layer.fields())
        f.setAttributes([tree_id, species])
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(x, y)))
        features.append(f)
    assert layer.dataProvider().addFeatures(features)
    return layer


def run(layer, feedback=None, **parameters):
    import processing
    parameters = {"INPUT": layer, "TOLERANCE": 0.0, "LAYOUT": 0, "OUTPUT": "memory:", **parameters}
    result = processing.run("pindrop:spread", parameters, feedback=feedback or Recorder())
    return result["OUTPUT"]


class SpreadAlgorithmTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rows = read_trees()
        cls.layer = tree_layer(cls.rows)

    def test_algorithm_is_registered_with_its_parameters(self):
        alg = QgsApplication.processingRegistry().algorithmById("pindrop:spread")
        self.assertIsNotNone(alg)
        self.assertEqual(alg.displayName(), "Spread points that share a spot (pindrop)")
        self.assertEqual([p.name() for p in alg.parameterDefinitions()], ["INPUT", "TOLERANCE", "LAYOUT", "SPACING", "SCALE", "OUTPUT"])

    def test_stack_of_305_goes_on_its_ring_and_everything_else_stays(self):
        feedback = Recorder()
        out = run(self.layer, feedback)
        self.assertEqual(out.featureCount(), len(self.rows))
        self.assertEqual([f.name() for f in out.fields()], ["id", "species", "true_x", "true_y"])
        spots = Counter((x, y) for _, x, y, _ in self.rows)
        stacks = {spot: [] for spot, n in spots.items() if n > 1}
        moved = 0
        for row, f in zip(self.rows, out.getFeatures()):
            tree_id, x, y, species = row
            self.assertEqual(f.attributes()[:2], [tree_id, species])
            self.assertEqual((f["true_x"], f["true_y"]), (x, y))
            p = f.geometry().asPoint()
            if (x, y) in stacks:
                stacks[(x, y)].append((p.x(), p.y()))
                moved += 1
            else:
                self.assertEqual((p.x(), p.y()), (x, y))
        self.assertIn(305, [len(v) for v in stacks.values()])
        for (x, y), drawn in stacks.items():
            n = len(drawn)
            for i, q in enumerate(drawn):  # input order = pindrop's id order
                ex, ey = destination(x, y, 2 * math.pi * i / n, 1.5 * n)
                self.assertAlmostEqual(q[0], ex, delta=1e-9)
                self.assertAlmostEqual(q[1], ey, delta=1e-9)
                self.assertAlmostEqual(haversine(q, (x, y)), 1.5 * n, delta=1e-4)
        self.assertEqual(moved, sum(len(v) for v in stacks.values()))
        # Progress like QGIS's own algorithms: 0..100, never backwards, ends at 100.
        self.assertEqual(feedback.progress, sorted(feedback.progress))
        self.assertEqual(feedback.progress[-1], 100)
        self.assertGreater(len(feedback.progress), 3)

    def test_cancel_stops_reading_and_writes_nothing_more(self):
        feedback = Recorder(cancel_at=1e-9)  # the first report after the start
        out = run(self.layer, feedback)
        self.assertTrue(feedback.isCanceled())
        self.assertLess(max(feedback.progress), 45)  # never reached the spreading step
        self.assertEqual(out.featureCount(), 0)

    def test_cancel_while_writing_leaves_a_partial_layer(self):
        # 7937 features are written in one chunk; a cancel during reading's last report stops
        # before the writing loop, so use a layer large enough for several chunks.
        rows = self.rows * 6  # 47622 points: three chunks of 20000
        feedback = Recorder(cancel_at=50)
        out = run(tree_layer(rows), feedback)
        self.assertTrue(feedback.isCanceled())
        self.assertLess(max(feedback.progress), 100)
        self.assertLess(out.featureCount(), len(rows))

    def test_layer_in_another_crs_is_spread_in_metres_and_written_in_its_crs(self):
        to_3857 = QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:4326"),
                                         QgsCoordinateReferenceSystem("EPSG:3857"), QgsProject.instance())
        rows = []
        for tree_id, lon, lat, species in self.rows[:400]:
            p = to_3857.transform(QgsPointXY(lon, lat))
            rows.append((tree_id, p.x(), p.y(), species))
        out = run(tree_layer(rows, "EPSG:3857"))
        self.assertEqual(out.crs().authid(), "EPSG:3857")
        reference = {f["id"]: f.geometry().asPoint() for f in run(tree_layer(self.rows[:400])).getFeatures()}
        for row, f in zip(rows, out.getFeatures()):
            self.assertEqual((f["true_x"], f["true_y"]), (row[1], row[2]))
            back = to_3857.transform(f.geometry().asPoint(), QgsCoordinateTransform.ReverseTransform)
            self.assertAlmostEqual(back.x(), reference[row[0]].x(), delta=1e-8)
            self.assertAlmostEqual(back.y(), reference[row[0]].y(), delta=1e-8)

    def test_output_to_a_geopackage_file(self):
        import processing
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            path = str(Path(tmp) / "spread.gpkg")
            result = processing.run("pindrop:spread", {"INPUT": self.layer, "TOLERANCE": 0.0, "LAYOUT": 0,
                                                       "OUTPUT": path})
            self.assertEqual(result["OUTPUT"], path)
            written = QgsVectorLayer(path, "written", "ogr")
            self.assertTrue(written.isValid())
            self.assertEqual(written.featureCount(), len(self.rows))
            names = [f.name() for f in written.fields()]
            self.assertEqual(names[-4:], ["id", "species", "true_x", "true_y"])
            moved = sum(1 for f in written.getFeatures()
                        if (f.geometry().asPoint().x(), f.geometry().asPoint().y()) != (f["true_x"], f["true_y"]))
            spots = Counter((x, y) for _, x, y, _ in self.rows)
            self.assertEqual(moved, sum(n for n in spots.values() if n > 1))
            del written

    def test_tolerance_in_metres_groups_nearby_points(self):
        lon, lat = -118.3535474, 33.8870931
        near = destination(lon, lat, math.pi / 2, 3.0)  # 3 m east
        layer = tree_layer([(1, lon, lat, "a"), (2, near[0], near[1], "b")])
        same = [f.geometry().asPoint() for f in run(layer, TOLERANCE=2.0).getFeatures()]
        self.assertEqual([(p.x(), p.y()) for p in same], [(lon, lat), near])
        spread = [f.geometry().asPoint() for f in run(layer, TOLERANCE=5.0).getFeatures()]
        centre = ((lon + near[0]) / 2, (lat + near[1]) / 2)
        for p in spread:
            self.assertAlmostEqual(haversine((p.x(), p.y()), centre), 3.0, delta=1e-3)  # ring of 2: 3 m

    def test_multipoints_of_one_part_are_spread_and_other_features_copied_unchanged(self):
        lon, lat = -118.3535474, 33.8870931
        layer = QgsVectorLayer("MultiPoint?crs=EPSG:4326&field=name:string", "m", "memory")
        geometries = {"one": f"MultiPoint(({lon} {lat}))", "also one": f"MultiPoint(({lon} {lat}))",
                      "two parts": f"MultiPoint(({lon} {lat}),({lon} {lat}))", "none": None}
        features = []
        for name, wkt in geometries.items():
            f = QgsFeature(layer.fields())
            f.setAttributes([name])
            if wkt:
                f.setGeometry(QgsGeometry.fromWkt(wkt))
            features.append(f)
        self.assertTrue(layer.dataProvider().addFeatures(features))
        out = {f["name"]: f for f in run(layer).getFeatures()}
        self.assertEqual(len(out), 4)
        for name, bearing in (("one", 0.0), ("also one", math.pi)):  # a ring of 2: 3 m north, south
            parts = out[name].geometry().asMultiPoint()
            self.assertEqual(len(parts), 1)
            ex, ey = destination(lon, lat, bearing, 3.0)
            self.assertAlmostEqual(parts[0].x(), ex, delta=1e-9)
            self.assertAlmostEqual(parts[0].y(), ey, delta=1e-9)
            self.assertEqual((out[name]["true_x"], out[name]["true_y"]), (lon, lat))
        self.assertEqual(out["two parts"].geometry().asWkt(), QgsGeometry.fromWkt(geometries["two parts"]).asWkt())
        self.assertFalse(out["none"].hasGeometry())
        for name in ("two parts", "none"):
            self.assertEqual((out[name]["true_x"], out[name]["true_y"]), (NULL, NULL))

    def test_a_polygon_or_line_layer_fails_saying_the_input_must_be_a_point_layer(self):
        """From PyQGIS nothing filters the input to point layers as the dialog does: a polygon, a
        line or a geometryless layer is refused with a message that says so, before the output is
        made or a feature read (it used to fail on the first feature with asPoint's TypeError)."""
        lon, lat = -118.3535474, 33.8870931
        square = f"({lon} {lat},{lon + 1e-4} {lat},{lon} {lat + 1e-4},{lon} {lat})"

        def one_feature_layer(uri, wkt):
            layer = QgsVectorLayer(uri, "parcels", "memory")
            f = QgsFeature(layer.fields())
            f.setAttributes(["a"])
            if wkt:
                f.setGeometry(QgsGeometry.fromWkt(wkt))
            self.assertTrue(layer.dataProvider().addFeatures([f]))
            return layer

        refused = {"polygon layer": ("Polygon?crs=EPSG:4326&field=name:string", f"Polygon({square})"),
                   "polygon layer (MultiPolygon)": ("MultiPolygon?crs=EPSG:4326&field=name:string", f"MultiPolygon(({square}))"),
                   "line layer": ("LineString?crs=EPSG:4326&field=name:string", f"LineString({lon} {lat},{lon + 1e-4} {lat})"),
                   "layer without geometry": ("None?field=name:string", None)}  # the dialog does not list tables either
        for kind, (uri, wkt) in refused.items():
            with self.subTest(kind):
                feedback = Recorder()
                with tempfile.TemporaryDirectory() as tmp:
                    path = Path(tmp) / "spread.gpkg"
                    with self.assertRaises(QgsProcessingException) as caught:
                        run(one_feature_layer(uri, wkt), feedback, OUTPUT=str(path))
                    self.assertFalse(path.exists())  # no output made
                message = str(caught.exception)
                self.assertIn("must be a point layer", message)
                self.assertIn(f"'parcels' is a {kind}", message)
                self.assertNotIn("TypeError", message)
                self.assertNotIn("Traceback", message)
                self.assertEqual(feedback.progress, [])  # no feature read
        # Points with Z and multipoints still go through.
        for uri, wkt in (("PointZ", f"PointZ({lon} {lat} 1)"), ("MultiPoint", f"MultiPoint(({lon} {lat}))")):
            with self.subTest(uri):
                out = run(one_feature_layer(f"{uri}?crs=EPSG:4326&field=name:string", wkt))
                self.assertEqual(out.featureCount(), 1)
                self.assertEqual(out.wkbType(), QgsGeometry.fromWkt(wkt).wkbType())

    def test_spiral_layout_at_a_map_scale(self):
        """The spiral rule at the Web Mercator zoom of the map scale (OGC's 0.28 mm points):
        the 305-tree stack on Leaflet.markercluster's spiral, a pair on a circle of 25 points."""
        scale, spacing = 5000.0, 25.0
        out = run(self.layer, LAYOUT=1, SCALE=scale, SPACING=spacing)
        mean_lat = sum(lat for _, _, lat, _ in self.rows) / len(self.rows)
        zoom = math.log2(559082264.0287178 * math.cos(math.radians(mean_lat)) / scale)
        world = 256 * 2 ** zoom

        def to_points(lon, lat):
            y = math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
            return (lon + 180) / 360 * world, (1 - y / math.pi) / 2 * world

        def to_lonlat(x, y):
            return x / world * 360 - 180, math.degrees(2 * math.atan(math.exp(math.pi * (1 - 2 * y / world))) - math.pi / 2)

        def layout(n):  # (distance in points, bearing) of pin k, by the spiral rule
            s = spacing / 25
            if n < 9:
                r = max(spacing, spacing * (n + 2) / (2 * math.pi))
                return [(r, 2 * math.pi * k / n) for k in range(n)]
            legs, length, angle = [None] * n, 11 * s, 0.0
            for k in range(n, -1, -1):
                if k < n:
                    legs[k] = (length, angle)
                angle += 28 * s / length + 0.0005 * k
                length += 5 * s * 2 * math.pi / angle
            return legs

        spots = Counter((x, y) for _, x, y, _ in self.rows)
        seen = {spot: 0 for spot in spots}
        checked = 0
        for row, f in zip(self.rows, out.getFeatures()):
            spot = (row[1], row[2])
            n, k = spots[spot], seen[spot]
            seen[spot] += 1
            p = f.geometry().asPoint()
            if n == 1:
                self.assertEqual((p.x(), p.y()), spot)
                continue
            distance, bearing = layout(n)[k]
            cx, cy = to_points(*spot)
            ex, ey = to_lonlat(cx + distance * math.sin(bearing), cy - distance * math.cos(bearing))
            self.assertAlmostEqual(p.x(), ex, delta=1e-9)
            self.assertAlmostEqual(p.y(), ey, delta=1e-9)
            if n == 2:  # 25 points of 0.28 mm at 1:5000: 35 m on the ground
                self.assertAlmostEqual(haversine((p.x(), p.y()), spot), 25 * 0.00028 * scale, delta=0.35)
            checked += 1
        self.assertEqual(checked, sum(n for n in spots.values() if n > 1))

    def test_a_coordinate_pindrop_refuses_fails_with_its_message(self):
        layer = tree_layer([(1, 10.0, 95.0, "north of the pole")])
        with self.assertRaises(QgsProcessingException) as caught:
            run(layer)
        self.assertIn("pindrop", str(caught.exception))
        far = tree_layer([(1, 500000.0, 3750000.0, "in UTM 11N"), (2, 1e12, 1e12, "off the earth")], "EPSG:32611")
        with self.assertRaises(QgsProcessingException) as caught:
            run(far)
        self.assertIn("could not be transformed to lon/lat", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
