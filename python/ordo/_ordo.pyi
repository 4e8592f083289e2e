# Types of the native module ordo._ordo (crates/py). The public API, with documentation, is
# in ordo/__init__.py; these are its building blocks.
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

__version__: str

class GraphFormatError(ValueError):
    file: str
    line: Optional[int]
    reason: str

class Graph:
    @staticmethod
    def from_file(
        path: str,
        format: Optional[str] = None,
        symmetrize: bool = False,
        weights: Optional[str] = None,
        coordinates: Optional[str] = None,
    ) -> Graph: ...
    @staticmethod
    def from_edges(
        src: npt.NDArray[np.int64],
        dst: npt.NDArray[np.int64],
        weights: Optional[npt.NDArray[np.int64]],
        num_nodes: Optional[int],
    ) -> Graph: ...
    def with_coordinates(self, xy: npt.NDArray[np.float64], lonlat: bool = False) -> Graph: ...
    def save(self, path: str, format: Optional[str] = None) -> None: ...
    def csr(
        self,
    ) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], Optional[npt.NDArray[np.int64]]]: ...
    def coordinates(self) -> Optional[npt.NDArray[np.float64]]: ...
    def out_degrees(self) -> npt.NDArray[np.int64]: ...
    @property
    def num_nodes(self) -> int: ...
    @property
    def num_edges(self) -> int: ...
    @property
    def is_weighted(self) -> bool: ...
    @property
    def id_base(self) -> int: ...

Params = Optional[Dict[str, Any]]

def run(
    app: str, graph: Graph, values: Dict[str, Any], algo: str, scheduler: str,
    threads: Optional[int], params: Params, report: bool,
) -> Any: ...
def applications() -> List[Dict[str, Any]]: ...
def is_positional(nodes: List[Any]) -> bool: ...
def adjacency_arrays(
    neighbors: List[Dict[Any, Any]], index: Optional[Dict[Any, int]] = None
) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
def edge_values(
    neighbors: List[Dict[Any, Any]], attr: Any, default: Any
) -> Tuple[str, Optional[npt.NDArray[Any]], List[str]]: ...
def schedulers() -> List[Dict[str, Any]]: ...
