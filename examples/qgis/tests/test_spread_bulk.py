"""pindrop:spread's bulk path against its feature-by-feature path, on real street trees.

A whole layer of single points takes the bulk path (read as one multipoint, copied with true_x,
true_y by native:addxyfields, only the moved points changed, a memory output handed the copy's
features). The same layer with every feature selected always goes feature by feature, through the
code of the first version, so the two must give the same features: same attributes, same drawn
positions to the last bit, same true positions. Checked for inputs from a CSV file
(delimitedtext), a GeoPackage and memory, outputs to memory and to a GeoPackage, Lawndale's 7937
trees (in the repository, also in EPSG:3857) and, when ../shared/data is there, three cities' GeoJSON
files with all their attributes. Also: cancelling the bulk path mid-way, z values, a feature without a
point. Run with Debian's python3 (python3-qgis), as `make test-qgis` does.
"""
import tempfile
import unittest
from pathlib import Path

from qgis.core import (NULL, QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsFeature, QgsGeometry, QgsPoint,
                       QgsPointXY, QgsProcessingFeatureSourceDefinition, QgsProject, QgsVectorFileWriter,
                       QgsVectorLayer, QgsWkbTypes)

from tests.test_spread_algorithm import ROOT, TREES, Recorder, read_trees, tree_layer
from tests.test_spread_algorithm import setUpModule as start_qgis

CITIES = ROOT.parent / "shared" / "data" / "la_trees_geojson"
BULK = "decoded by NumPy"          # the bulk path's report of its reading
ARROW = "GDAL's Arrow stream"      # ... when GDAL read the points
ONE_BY_ONE = "features ("          # the feature-by-feature path's: "read n features (m with one point)"
COPIED = 90                        # the bulk path's progress once native:addxyfields has copied everything


def setUpModule():
    start_qgis()


class Info(Recorder):
    """A Recorder that keeps the algorithm's info lines too (which path it took)."""

    def __init__(self, cancel_at=None):
        super().__init__(cancel_at)
        self.info = []

    def pushInfo(self, info):  # noqa: N802 (QGIS's name)
        self.info.append(info)

    def took(self, marker):
        return any(marker in line for line in self.info)


def spread(source, output="memory:", cancel_at=None, **parameters):
    """Runs pindrop:spread; returns (output layer, feedback)."""
    import processing
    feedback = Info(cancel_at)
    parameters = {"INPUT": source, "TOLERANCE": 1.0, "LAYOUT": 0, "OUTPUT": output, **parameters}
    result = processing.run("pindrop:spread", parameters, feedback=feedback)["OUTPUT"]
    if isinstance(result, str):
        result = QgsVectorLayer(result, "written", "ogr")
        assert result.isValid(), output
    return result, feedback


def one_by_one(layer, **parameters):
    """The feature-by-feature output for this layer: the same run with a feature limit that keeps
    every feature (a selection would not do: it is read in another order)."""
    QgsProject.instance().addMapLayer(layer, False)
    try:
        limit = layer.featureCount() + 1
        out, feedback = spread(QgsProcessingFeatureSourceDefinition(layer.id(), False, limit), **parameters)
        assert feedback.took(ONE_BY_ONE) and not feedback.took(BULK), feedback.info
        return out
    finally:
        QgsProject.instance().takeMapLayer(layer)


def features(layer, skip=("fid",)):
    """Every feature as (attributes by name, drawn x, y, z), in the layer's order."""
    names = [n for n in layer.fields().names() if n not in skip]
    rows = []
    for f in layer.getFeatures():
        point = f.geometry().constGet() if f.hasGeometry() else None
        position = (point.x(), point.y(), point.z() if point.is3D() else None) if point is not None else None
        rows.append(({n: f[n] for n in names}, position))
    return rows


def write_gpkg(layer, path):
    options = QgsVectorFileWriter.SaveVectorOptions()
    options.driverName = "GPKG"
    error = QgsVectorFileWriter.writeAsVectorFormatV2(layer, str(path), QgsProject.instance().transformContext(), options)
    assert error[0] == QgsVectorFileWriter.NoError, error
    written = QgsVectorLayer(str(path), "trees", "ogr")
    assert written.isValid()
    return written


class BulkPathTest(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.rows = read_trees()
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def assertSameFeatures(self, got, expected, key="id"):
        """Same features in the same order, with the same values (all bits) and positions."""
        got, expected = features(got), features(expected)
        self.assertEqual(len(got), len(expected))
        self.assertEqual([a[key] for a, _ in got], [a[key] for a, _ in expected])
        self.assertEqual(got, expected)

    def test_lawndale_from_csv_gpkg_and_memory_to_memory_and_gpkg(self):
        csv_uri = f"file://{TREES}?type=csv&xField=lon&yField=lat&crs=EPSG:4326"
        inputs = {"memory": lambda: tree_layer(self.rows),
                  "csv": lambda: QgsVectorLayer(csv_uri, "trees", "delimitedtext"),
                  "gpkg": lambda: QgsVectorLayer(str(self.dir / "lawndale.gpkg"), "trees", "ogr")}
        write_gpkg(tree_layer(self.rows), self.dir / "lawndale.gpkg")
        reference = None
        for kind, make in inputs.items():
            with self.subTest(input=kind):
                layer = make()
                self.assertTrue(layer.isValid())
                self.assertEqual(layer.featureCount(), len(self.rows))
                expected = one_by_one(make())
                if reference is None:
                    reference = expected
                    moved = sum(1 for a, p in features(reference) if (p[0], p[1]) != (a["true_x"], a["true_y"]))
                    self.assertGreater(moved, 6000)  # the stacks of 305 and 261 among them
                # the one-by-one outputs agree across inputs (by tree id, position and true position)
                self.assertEqual(sorted((a["id"], p, a["true_x"], a["true_y"]) for a, p in features(expected)),
                                 sorted((a["id"], p, a["true_x"], a["true_y"]) for a, p in features(reference)))
                out, feedback = spread(layer)
                self.assertTrue(feedback.took(BULK), feedback.info)
                self.assertEqual(feedback.took(ARROW), kind == "gpkg", feedback.info)
                self.assertEqual(out.dataProvider().name(), "memory")
                self.assertSameFeatures(out, expected)
                self.assertEqual(feedback.progress, sorted(feedback.progress))
                self.assertEqual(feedback.progress[-1], 100)
                path = self.dir / f"from_{kind}.gpkg"
                written, feedback = spread(layer, output=str(path))
                self.assertTrue(feedback.took(BULK), feedback.info)
                self.assertEqual(written.dataProvider().name(), "ogr")
                self.assertSameFeatures(written, expected)
                del written

    def test_lawndale_in_web_mercator(self):
        to_3857 = QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:4326"),
                                         QgsCoordinateReferenceSystem("EPSG:3857"), QgsProject.instance())
        rows = []
        for tree_id, lon, lat, species in self.rows:
            p = to_3857.transform(QgsPointXY(lon, lat))
            rows.append((tree_id, p.x(), p.y(), species))
        out, feedback = spread(tree_layer(rows, "EPSG:3857"))
        self.assertTrue(feedback.took(BULK), feedback.info)
        self.assertEqual(out.crs().authid(), "EPSG:3857")
        self.assertSameFeatures(out, one_by_one(tree_layer(rows, "EPSG:3857")))

    @unittest.skipUnless(CITIES.exists(), "the cities' GeoJSON files are not at ../shared/data")
    def test_three_cities_with_all_their_attributes(self):
        for name in ("lawndale", "west-hollywood", "artesia"):
            with self.subTest(city=name):
                path = str(CITIES / f"{name}.geojson")
                layer = QgsVectorLayer(path, name, "ogr")
                self.assertGreater(len(layer.fields()), 3)
                out, feedback = spread(layer, TOLERANCE=2.0)
                self.assertTrue(feedback.took(BULK) and feedback.took(ARROW), feedback.info)
                expected = one_by_one(QgsVectorLayer(path, name, "ogr"), TOLERANCE=2.0)
                self.assertSameFeatures(out, expected, key=layer.fields().names()[0])
                moved = sum(1 for a, p in features(out) if (p[0], p[1]) != (a["true_x"], a["true_y"]))
                self.assertGreater(moved, 0)

    def test_cancel_during_the_copy_stops_it_and_writes_nothing(self):
        layer = tree_layer(self.rows * 6)  # 47622 points: the copy reports progress many times
        for output in ("memory:", str(self.dir / "cancelled.gpkg")):
            with self.subTest(output=output):
                out, feedback = spread(layer, output=output, cancel_at=50)
                self.assertTrue(feedback.isCanceled())
                self.assertTrue(feedback.took(BULK), feedback.info)
                self.assertFalse(feedback.took("copied"), feedback.info)  # native:addxyfields stopped
                self.assertGreaterEqual(max(feedback.progress), 50)
                self.assertLess(max(feedback.progress), COPIED)
                self.assertEqual(out.featureCount(), 0)
                del out

    def test_cancel_while_reading_writes_nothing(self):
        out, feedback = spread(tree_layer(self.rows), cancel_at=1e-9)
        self.assertTrue(feedback.isCanceled())
        self.assertLess(max(feedback.progress), 15)  # stopped before spreading
        self.assertFalse(feedback.took("spread them"), feedback.info)
        self.assertEqual(out.featureCount(), 0)

    def test_z_values_are_kept_where_points_move(self):
        flat = tree_layer(self.rows[:600])
        layer = QgsVectorLayer("PointZ?crs=EPSG:4326&field=id:integer&field=species:string", "z", "memory")
        added = []
        for i, f in enumerate(flat.getFeatures()):
            g = QgsFeature(layer.fields())
            g.setAttributes(f.attributes())
            p = f.geometry().asPoint()
            g.setGeometry(QgsGeometry(QgsPoint(p.x(), p.y(), 10.0 + i)))
            added.append(g)
        self.assertTrue(layer.dataProvider().addFeatures(added))
        out, feedback = spread(layer)
        self.assertTrue(feedback.took(BULK), feedback.info)
        self.assertEqual(out.wkbType(), QgsWkbTypes.PointZ)
        reference, _ = spread(flat)
        moved = 0
        for i, ((a, p), (b, q)) in enumerate(zip(features(out), features(reference))):
            self.assertEqual(a, b)
            self.assertEqual(p, (q[0], q[1], 10.0 + i))
            moved += (p[0], p[1]) != (a["true_x"], a["true_y"])
        self.assertGreater(moved, 300)

    def test_a_feature_without_a_point_sends_the_layer_one_by_one(self):
        layer = tree_layer(self.rows[:600])
        empty = QgsFeature(layer.fields())
        empty.setAttributes([-1, "no geometry"])
        self.assertTrue(layer.dataProvider().addFeatures([empty]))
        reference = features(spread(tree_layer(self.rows[:600]))[0])
        for kind, source in (("memory", layer), ("gpkg", write_gpkg(layer, self.dir / "with_empty.gpkg"))):
            with self.subTest(input=kind):
                out, feedback = spread(source)
                self.assertTrue(feedback.took(ONE_BY_ONE) and not feedback.took("copied"), feedback.info)
                got = features(out)
                # written to a GeoPackage, the missing geometry comes back as an empty point: no point either
                last = list(out.getFeatures())[-1]
                self.assertTrue(not last.hasGeometry() or last.geometry().isEmpty())
                self.assertEqual(got[-1][0], {"id": -1, "species": "no geometry", "true_x": NULL, "true_y": NULL})
                self.assertEqual(got[:-1], reference)

    def test_a_layer_with_a_true_x_field_goes_one_by_one_with_renamed_fields(self):
        layer = QgsVectorLayer("Point?crs=EPSG:4326&field=true_x:double", "t", "memory")
        features_ = []
        for value in (1.0, 2.0):
            f = QgsFeature(layer.fields())
            f.setAttributes([value])
            f.setGeometry(QgsGeometry.fromWkt("Point(-118.35 33.9)"))
            features_.append(f)
        self.assertTrue(layer.dataProvider().addFeatures(features_))
        out, feedback = spread(layer)
        self.assertTrue(feedback.took(ONE_BY_ONE), feedback.info)
        self.assertEqual(out.fields().names(), ["true_x", "true_x_2", "true_y"])
        self.assertEqual([f.attributes() for f in out.getFeatures()], [[1.0, -118.35, 33.9], [2.0, -118.35, 33.9]])
        self.assertEqual(len({f.geometry().asWkt() for f in out.getFeatures()}), 2)  # spread apart


if __name__ == "__main__":
    unittest.main()
