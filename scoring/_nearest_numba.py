"""Compiled kernels of :mod:`scoring.nearest`: a KD-forest and a bounded tie search.

Hand-written because no library offers this query: a KD-tree search with one bound per
query (the tie zone of its true row's distance) that stops at the first point proving a
miss and otherwise weighs the points tying the minimum. scipy's ``cKDTree`` takes one
scalar bound per call and always finds the k nearest; see :mod:`scoring.nearest` for
what that cost.

Compiled with numba (``nogil``: the caller runs chunks of queries on a thread pool;
no numba threading layer, so nothing here is unsafe under fork or concurrent threads).
``cache=True`` keeps the machine code next to this file (or in ``NUMBA_CACHE_DIR``);
where no cache directory is writable, the kernels are compiled in every process instead.
"""

from __future__ import annotations

import math

import numba
import numpy as np

# Constants are frozen into the cached machine code, which is only recompiled when this
# file changes: hence a copy of scoring.nearest.TIE_RTOL (a test checks they are equal).
TIE_RTOL = 1e-9
SLACK = 1e-12  # pruning margin: box distances are rounded, a point on the bound must stay
FOUND = 32  # points kept per query; more within the bound (rare) costs a second walk


def _compiled(function):
    try:
        return numba.njit(cache=True, nogil=True)(function)
    except RuntimeError:  # no writable cache directory: compile in this process
        return numba.njit(nogil=True)(function)


@_compiled
def _tie(dmin):
    # scoring.nearest.tie_threshold for one value, the same floating-point operations
    if dmin <= 1.0 - TIE_RTOL:
        return dmin + TIE_RTOL
    return dmin / (1.0 - TIE_RTOL)


@_compiled
def distinct_rows(points, key):
    """Distinct ``(key, row)`` pairs: the first row of each, every row's pair, multiplicities.

    An open-addressing hash table over the rows' bits (``-0.0`` must be given as ``0.0``);
    pairs are numbered in order of first occurrence.
    """
    n, dims = points.shape
    bits = points.view(np.uint64)
    size = 1
    while size < 2 * n:
        size *= 2
    table = np.full(size, -1, np.int64)
    first = np.empty(n, np.int64)
    counts = np.zeros(n, np.int64)
    inverse = np.empty(n, np.int64)
    distinct = 0
    for i in range(n):
        h = np.uint64(key[i]) * np.uint64(0x9E3779B97F4A7C15)
        for j in range(dims):
            h = (h ^ bits[i, j]) * np.uint64(0x100000001B3)
            h ^= h >> np.uint64(29)
        slot = np.int64(h & np.uint64(size - 1))
        while True:
            found = table[slot]
            if found < 0:
                table[slot] = distinct
                first[distinct] = i
                inverse[i] = distinct
                counts[distinct] = 1
                distinct += 1
                break
            other = first[found]
            same = key[other] == key[i]
            for j in range(dims):
                if not same:
                    break
                same = bits[other, j] == bits[i, j]
            if same:
                inverse[i] = found
                counts[found] += 1
                break
            slot = (slot + 1) & (size - 1)
    return first[:distinct].copy(), inverse, counts[:distinct].copy()


START, END, CHILD, DEPTH, PENDING = range(5)  # columns of the node table


@_compiled
def build_forest(points, starts, leafsize):
    """One KD-tree per range ``starts[c]:starts[c + 1]`` of ``points`` (distinct rows).

    Splits at the middle of the widest side of each node's tight bounding box (both sides
    keep points). Returns the points in tree order, the permutation that put them there,
    the node table (per node: its range in tree order, its first child, ``-1`` for a leaf,
    the second child following it; then scratch columns), the bounding boxes (lows, then
    highs), the root of every range and the depth of the forest.
    """
    n, dims = points.shape
    tree_points = points.copy()  # rows move with the partitions: every pass is sequential
    order = np.arange(n)
    ranges = starts.size - 1
    capacity = 2 * (n // max(1, leafsize // 2)) + 2 * ranges + 16
    nodes = np.empty((capacity, 5), np.int64)
    box = np.empty((capacity, 2 * dims))
    roots = np.empty(ranges, np.int64)
    for c in range(ranges):
        roots[c] = c
        nodes[c, START], nodes[c, END] = starts[c], starts[c + 1]
        nodes[c, DEPTH] = 0
        nodes[ranges - 1 - c, PENDING] = c  # a stack: the first range on top
        _empty_box(box, c, dims)
        for p in range(starts[c], starts[c + 1]):
            _extend_box(box, c, tree_points, p, dims)
    count = ranges
    waiting = ranges
    depth = 0
    while waiting > 0:  # depth first: a subtree's nodes stay close in memory
        waiting -= 1
        k = nodes[waiting, PENDING]
        start, end = nodes[k, START], nodes[k, END]
        nodes[k, CHILD] = -1
        depth = max(depth, nodes[k, DEPTH])
        axis = 0
        for j in range(1, dims):
            if box[k, dims + j] - box[k, j] > box[k, dims + axis] - box[k, axis]:
                axis = j
        low, high = box[k, axis], box[k, dims + axis]
        if end - start <= leafsize or not high > low:
            continue
        if count + 2 > capacity:
            capacity *= 2
            nodes = _grown(nodes, capacity)
            box = _grown(box, capacity)
        split = low + (high - low) / 2.0
        if not split > low:  # adjacent floats: the lowest value goes left
            split = high
        left_node, right_node = count, count + 1
        _empty_box(box, left_node, dims)
        _empty_box(box, right_node, dims)
        left, right = start, end - 1
        while left <= right:  # the children's boxes grow as their rows are placed
            if tree_points[left, axis] < split:
                _extend_box(box, left_node, tree_points, left, dims)
                left += 1
            else:
                for j in range(dims):
                    value = tree_points[left, j]
                    tree_points[left, j] = tree_points[right, j]
                    tree_points[right, j] = value
                order[left], order[right] = order[right], order[left]
                _extend_box(box, right_node, tree_points, right, dims)
                right -= 1
        nodes[k, CHILD] = left_node
        nodes[left_node, START], nodes[left_node, END] = start, left
        nodes[right_node, START], nodes[right_node, END] = left, end
        nodes[left_node, DEPTH] = nodes[right_node, DEPTH] = nodes[k, DEPTH] + 1
        nodes[waiting, PENDING] = right_node
        nodes[waiting + 1, PENDING] = left_node
        waiting += 2
        count += 2
    return tree_points, order, nodes[:count, :3], box[:count], roots, depth


@_compiled
def _empty_box(box, node, dims):
    for j in range(dims):
        box[node, j] = np.inf
        box[node, dims + j] = -np.inf


@_compiled
def _extend_box(box, node, points, p, dims):
    for j in range(dims):
        value = points[p, j]
        box[node, j] = min(box[node, j], value)
        box[node, dims + j] = max(box[node, dims + j], value)


@_compiled
def _grown(table, capacity):
    wider = np.empty((capacity, table.shape[1]), table.dtype)
    for i in range(table.shape[0]):
        for j in range(table.shape[1]):
            wider[i, j] = table[i, j]
    return wider


def _compiled_fast(function):
    # Reassociated sums, only for lower bounds that are checked again (or have slack)
    try:
        return numba.njit(cache=True, nogil=True, fastmath=True)(function)
    except RuntimeError:
        return numba.njit(nogil=True, fastmath=True)(function)


@_compiled_fast
def _box_distance2(box, node, query):
    # squared distance from the query to the node's box (lo: first half, hi: second half)
    dims = query.size
    total = 0.0
    for j in range(dims):
        gap = max(box[node, j] - query[j], query[j] - box[node, dims + j], 0.0)
        total += gap * gap
    return total


@_compiled_fast
def _rough_distance2(points, p, query):
    total = 0.0
    for j in range(query.size):
        gap = points[p, j] - query[j]
        total += gap * gap
    return total


@_compiled
def tie_weights(points, weights, nodes, box, depth, query_root, queries, d_true, selected, out):
    """Weighted number of points tying the nearest, for the queries ``selected``.

    A query's search is bounded by ``tie_threshold(d_true)``: no farther point can tie
    the minimum. A point closer than the true row's tie zone proves a miss (``out = 0``)
    and ends the search; otherwise ``out`` is the weight of the points within the tie
    threshold of the minimum (the true row among them). ``points`` in tree order.
    """
    dims = points.shape[1]
    stack = np.empty(depth + 2, np.int64)
    found_distance = np.empty(FOUND)
    found_weight = np.empty(FOUND)
    query = np.empty(dims)
    for i in selected:
        for j in range(dims):
            query[j] = queries[i, j]
        true = d_true[i]
        bound = _tie(true)
        reach = bound * (1.0 + SLACK) + SLACK
        reach2 = reach * reach
        nearest = np.inf
        found = 0
        miss = False
        stack[0] = query_root[i]
        top = 1
        while top > 0 and not miss:
            top -= 1
            node = stack[top]
            child = nodes[node, CHILD]
            if child >= 0:
                near = _box_distance2(box, child, query)
                far = _box_distance2(box, child + 1, query)
                first, second = child, child + 1
                if far < near:
                    first, second, near, far = second, first, far, near
                if far <= reach2:
                    stack[top] = second
                    top += 1
                if near <= reach2:
                    stack[top] = first
                    top += 1
                continue
            for p in range(nodes[node, START], nodes[node, END]):
                if _rough_distance2(points, p, query) > reach2:
                    continue
                total = 0.0
                for j in range(dims):
                    gap = points[p, j] - query[j]
                    total += gap * gap
                if total > reach2:
                    continue
                distance = math.sqrt(total)
                if distance > bound:
                    continue
                if true > _tie(distance):
                    miss = True
                    break
                nearest = min(nearest, distance)
                if found < FOUND:
                    found_distance[found] = distance
                    found_weight[found] = weights[p]
                found += 1
        if miss:
            out[i] = 0.0
            continue
        threshold = _tie(min(nearest, true))
        if found > FOUND:
            out[i] = _weight_within(
                points, weights, nodes, box, stack, query_root[i], query, threshold
            )
            continue
        weight = 0.0
        for f in range(found):
            if found_distance[f] <= threshold:
                weight += found_weight[f]
        out[i] = weight


@_compiled
def _weight_within(points, weights, nodes, box, stack, root, query, threshold):
    reach = threshold * (1.0 + SLACK) + SLACK
    reach2 = reach * reach
    weight = 0.0
    stack[0] = root
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        child = nodes[node, CHILD]
        if child >= 0:
            for next_node in (child, child + 1):
                if _box_distance2(box, next_node, query) <= reach2:
                    stack[top] = next_node
                    top += 1
            continue
        for p in range(nodes[node, START], nodes[node, END]):
            total = 0.0
            for j in range(query.size):
                gap = points[p, j] - query[j]
                total += gap * gap
            if total <= reach2 and math.sqrt(total) <= threshold:
                weight += weights[p]
    return weight
