"""Small files in the real on-disk formats, written the same way (fixed seeds)
by the golden maker (for MindSpore) and by the tests (for msxla)."""
import os
import struct

import numpy as np

CIFAR_RECORDS = 10000  # MindSpore reads CIFAR files of the real size only


def _idx(path, arr, magic):
    with open(path, "wb") as f:
        f.write(struct.pack(">I", magic))
        f.write(struct.pack(">" + "I" * arr.ndim, *arr.shape))
        f.write(arr.tobytes())


def write_mnist(root):
    rng = np.random.default_rng(1)
    os.makedirs(root, exist_ok=True)
    for prefix, n, base in (("train", 6, 0), ("t10k", 3, 5)):
        _idx(os.path.join(root, f"{prefix}-images-idx3-ubyte"),
             rng.integers(0, 256, (n, 28, 28), dtype=np.uint8), 2051)
        _idx(os.path.join(root, f"{prefix}-labels-idx1-ubyte"),
             ((np.arange(n) + base) % 10).astype(np.uint8), 2049)
    return root


def write_cifar10(root):
    rng = np.random.default_rng(2)
    os.makedirs(root, exist_ok=True)
    for i, name in enumerate(["data_batch_1.bin", "test_batch.bin"]):
        rec = np.empty((CIFAR_RECORDS, 3073), np.uint8)
        rec[:, 0] = (np.arange(CIFAR_RECORDS) * (i + 3)) % 10
        rec[:, 1:] = rng.integers(0, 256, (CIFAR_RECORDS, 3072), dtype=np.uint8)
        rec.tofile(os.path.join(root, name))
    return root


def write_cifar100(root):
    rng = np.random.default_rng(3)
    os.makedirs(root, exist_ok=True)
    rec = np.empty((CIFAR_RECORDS, 3074), np.uint8)
    rec[:, 0] = np.arange(CIFAR_RECORDS) % 20
    rec[:, 1] = (np.arange(CIFAR_RECORDS) * 7) % 100
    rec[:, 2:] = rng.integers(0, 256, (CIFAR_RECORDS, 3072), dtype=np.uint8)
    rec.tofile(os.path.join(root, "test.bin"))
    return root


def write_image_folder(root):
    from PIL import Image
    rng = np.random.default_rng(4)
    for cls in ("dog", "cat", "ant"):
        os.makedirs(os.path.join(root, cls), exist_ok=True)
        for name, fmt in (("b.jpg", "JPEG"), ("a.png", "PNG"), ("c.JPEG", "JPEG"),
                          ("e.bmp", "BMP")):
            y, x = np.mgrid[0:6, 0:8]
            img = np.stack([y * 30, x * 25, (x + y) * 12], axis=2) + rng.integers(0, 20, (6, 8, 3))
            Image.fromarray(img.astype(np.uint8)).save(os.path.join(root, cls, name), format=fmt)
        with open(os.path.join(root, cls, "d.txt"), "w") as f:
            f.write("x")
    return root


def write_text(root):
    os.makedirs(root, exist_ok=True)
    files = {"t1.txt": "line one\nline two\n\nline four\n", "t2.txt": "second file\n",
             "t5.txt": "".join(f"r{i}\n" for i in range(5)),
             "t3.txt": "".join(f"s{i}\n" for i in range(3))}
    for name, text in files.items():
        with open(os.path.join(root, name), "w") as f:
            f.write(text)
    return root


def write_csv(root):
    os.makedirs(root, exist_ok=True)
    files = {"a.csv": "x,y,z\n1,2.5,hello\n3,4.5,world\n5,6.5,\n", "b.csv": "7,8.5,foo\n",
             "q.csv": 'a,b\n"x,y",2\n"he said ""hi""",3\n,4\n'}
    for name, text in files.items():
        with open(os.path.join(root, name), "w") as f:
            f.write(text)
    return root


def write_all(root):
    return {"mnist": write_mnist(os.path.join(root, "mnist")),
            "cifar10": write_cifar10(os.path.join(root, "cifar10")),
            "cifar100": write_cifar100(os.path.join(root, "cifar100")),
            "imagefolder": write_image_folder(os.path.join(root, "imagefolder")),
            "text": write_text(os.path.join(root, "text")),
            "csv": write_csv(os.path.join(root, "csv"))}


def _summary(col):
    col = np.asarray(col)
    if col.dtype.kind in "US":
        return {"dtype": "<U", "shape": list(col.shape), "value": col.tolist()}
    out = {"dtype": col.dtype.str, "shape": list(col.shape)}
    if col.size <= 200:
        out["value"] = col.tolist()
    else:
        out["sum"] = int(col.astype(np.int64).sum())
        out["head"] = col.ravel()[:8].tolist()
    return out


def describe(dataset, limit=None):
    rows = []
    for k, row in enumerate(dataset.create_tuple_iterator(output_numpy=True, num_epochs=1)):
        if limit is not None and k >= limit:
            break
        rows.append([_summary(c) for c in row])
    return {"columns": dataset.get_col_names(), "size": dataset.get_dataset_size(),
            "types": [np.dtype(t).str if np.dtype(t).kind != "U" else "<U"
                      for t in dataset.output_types()],
            "shapes": [list(s) for s in dataset.output_shapes()], "rows": rows}


def reader_cases(paths, ds):
    """name -> builder of a dataset over the written files."""
    p = paths
    txt = [os.path.join(p["text"], n) for n in ("t1.txt", "t2.txt", "t5.txt", "t3.txt")]
    cases = {
        "mnist_all": lambda: ds.MnistDataset(p["mnist"], shuffle=False),
        "mnist_train": lambda: ds.MnistDataset(p["mnist"], usage="train", shuffle=False),
        "mnist_test": lambda: ds.MnistDataset(p["mnist"], usage="test", shuffle=False),
        "mnist_shard": lambda: ds.MnistDataset(p["mnist"], shuffle=False, num_shards=4,
                                               shard_id=3),
        "cifar10_train": lambda: ds.Cifar10Dataset(p["cifar10"], usage="train", shuffle=False),
        "cifar10_all": lambda: ds.Cifar10Dataset(p["cifar10"], shuffle=False, num_samples=30),
        "cifar10_test_shard": lambda: ds.Cifar10Dataset(p["cifar10"], usage="test", num_shards=3,
                                                        shard_id=1, shuffle=False),
        "cifar100_test": lambda: ds.Cifar100Dataset(p["cifar100"], usage="test", shuffle=False),
        "imagefolder": lambda: ds.ImageFolderDataset(p["imagefolder"], shuffle=False),
        "imagefolder_decode": lambda: ds.ImageFolderDataset(
            p["imagefolder"], shuffle=False, decode=True, extensions=[".png", ".bmp"]),
        "imagefolder_classes": lambda: ds.ImageFolderDataset(
            p["imagefolder"], shuffle=False, extensions=[".png"],
            class_indexing={"dog": 5, "cat": 1}),
        "imagefolder_shard": lambda: ds.ImageFolderDataset(p["imagefolder"], shuffle=False,
                                                           num_shards=2, shard_id=1),
        "text_files": lambda: ds.TextFileDataset(txt, shuffle=False),
        "text_samples": lambda: ds.TextFileDataset(txt, shuffle=False, num_samples=5),
        "csv_header": lambda: ds.CSVDataset([os.path.join(p["csv"], "a.csv")], shuffle=False),
        "csv_two_files": lambda: ds.CSVDataset(
            [os.path.join(p["csv"], "a.csv"), os.path.join(p["csv"], "b.csv")],
            column_names=["p", "q", "r"], shuffle=False),
        "csv_typed": lambda: ds.CSVDataset([os.path.join(p["csv"], "b.csv")],
                                           column_defaults=[1, 2.0, "a"],
                                           column_names=["p", "q", "r"], shuffle=False),
        "csv_quotes": lambda: ds.CSVDataset([os.path.join(p["csv"], "q.csv")],
                                            column_defaults=["", 0], shuffle=False),
    }
    for files, k in (((0,), 3), ((2, 3), 3), ((2, 3), 2), ((2,), 7)):
        for s in range(k):
            chosen = [txt[i] for i in files]
            cases[f"text_shard_{'_'.join(map(str, files))}_{k}_{s}"] = (
                lambda chosen=chosen, k=k, s=s: ds.TextFileDataset(
                    chosen, shuffle=False, num_shards=k, shard_id=s))
    return cases
