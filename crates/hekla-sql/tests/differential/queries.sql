-- Queries run on hekla and on PostgreSQL by tests/differential.rs; the
-- directives (name, ordered, pg-replace, pg, known-difference) and the
-- portability rules are described at the top of that file. Tables: dept
-- (12 rows), emp (300), sales (600), tags (220), tri (9: every pair of
-- 0, 1 and NULL), generated there. Every entry ends with a line `-- ;`.

-- ===================================================================
-- Scans, filters, expressions

-- name: count_all
SELECT COUNT(*), COUNT(salary), COUNT(bonus), COUNT(dept_id) FROM emp
-- ;

-- name: filter_range
-- ordered
SELECT id, name, salary FROM emp WHERE salary BETWEEN 50000 AND 60000 AND grade IN (2, 3) ORDER BY id
-- ;

-- name: integer_arithmetic
-- ordered
SELECT id, salary / 7, salary % 7, bonus / 300, bonus % 300, -bonus, salary * 2 - bonus
FROM emp WHERE id <= 60 ORDER BY id
-- ;

-- name: decimal_arithmetic
-- ordered
SELECT id, price, price * qty, price + 1.5, price - qty, CAST(price / 4 AS decimal(12, 2))
FROM sales WHERE id % 10 = 3 ORDER BY id
-- ;

-- name: casts
-- ordered
SELECT s.id, CAST(e.salary AS decimal(10, 2)), CAST(s.price AS int), CAST(s.id AS varchar(10)), CAST(s.discount * 100 AS int)
FROM sales s JOIN emp e ON e.id = s.emp_id WHERE s.id <= 80 ORDER BY s.id
-- pg-replace: CAST(s.price AS int) => TRUNC(s.price)::int
-- pg-replace: CAST(s.discount * 100 AS int) => TRUNC(s.discount * 100)::int
-- ;

-- name: like_patterns
SELECT id, name, city FROM emp WHERE name LIKE '%a%' AND city LIKE 'b_rg%'
-- ;

-- name: string_functions
-- ordered
SELECT id, UPPER(name), LEN(city), SUBSTRING(city, 2, 3), LEFT(name, 2), RIGHT(city, 3), LTRIM(RTRIM(name))
FROM emp WHERE id BETWEEN 100 AND 140 ORDER BY id
-- pg-replace: LEN( => LENGTH(
-- ;

-- name: string_concatenation
-- ordered
SELECT id, name + '-' + city FROM emp WHERE id < 40 ORDER BY id
-- pg-replace: name + '-' + city => name || '-' || city
-- ;

-- name: abs_and_unary
SELECT ABS(bonus), COUNT(*) FROM emp GROUP BY ABS(bonus)
-- ;

-- ===================================================================
-- NULL logic

-- name: is_null
SELECT id FROM emp WHERE salary IS NULL OR dept_id IS NULL
-- ;

-- name: is_not_null_count
SELECT COUNT(*) FROM emp WHERE bonus IS NOT NULL AND city IS NOT NULL
-- ;

-- name: three_valued_and
SELECT id, a, b FROM tri WHERE a = 1 AND b = 1
-- ;

-- name: three_valued_or
SELECT id, a, b FROM tri WHERE a = 1 OR b = 1
-- ;

-- name: three_valued_not_and
SELECT id, a, b FROM tri WHERE NOT (a = 1 AND b = 1)
-- ;

-- name: three_valued_not_or
SELECT id, a, b FROM tri WHERE NOT (a = 1 OR b = 0)
-- ;

-- name: null_comparisons_are_unknown
SELECT id FROM tri WHERE a <> b OR a = NULL OR NOT (b <> 0)
-- ;

-- name: truth_table_by_case
-- ordered
SELECT id,
       CASE WHEN a = 1 AND b = 1 THEN 1 WHEN NOT (a = 1 AND b = 1) THEN 0 END,
       CASE WHEN a = 1 OR b = 1 THEN 1 WHEN NOT (a = 1 OR b = 1) THEN 0 END,
       CASE a WHEN 0 THEN 'zero' WHEN 1 THEN 'one' ELSE 'null' END
FROM tri ORDER BY id
-- ;

-- name: coalesce_nullif_isnull
-- ordered
SELECT id, COALESCE(bonus, salary, -1), NULLIF(grade, 3), ISNULL(city, 'nowhere'), COALESCE(NULLIF(bonus, 0), 7)
FROM emp WHERE id <= 80 ORDER BY id
-- pg-replace: ISNULL( => COALESCE(
-- ;

-- name: not_in_list_with_null
SELECT COUNT(*) FROM emp WHERE dept_id NOT IN (1, 2, NULL)
-- ;

-- name: in_list_with_null
SELECT COUNT(*) FROM emp WHERE dept_id IN (1, 2, NULL)
-- ;

-- name: not_in_subquery_with_null
-- empty
SELECT id FROM dept WHERE id NOT IN (SELECT dept_id FROM emp)
-- ;

-- name: not_in_subquery_without_null
SELECT id FROM dept WHERE id NOT IN (SELECT dept_id FROM emp WHERE dept_id IS NOT NULL)
-- ;

-- name: null_arithmetic
SELECT id, salary + bonus, bonus * 2, CASE WHEN bonus > 0 THEN 'pos' WHEN bonus <= 0 THEN 'nonpos' END
FROM emp WHERE id % 9 = 0
-- ;

-- ===================================================================
-- Aggregates, GROUP BY, HAVING

-- name: aggregates_whole_table
SELECT COUNT(*), SUM(salary), MIN(salary), MAX(salary), SUM(bonus), MIN(name), MAX(city) FROM emp
-- ;

-- name: aggregates_empty_input
SELECT COUNT(*), COUNT(salary), SUM(salary), MIN(name), MAX(bonus) FROM emp WHERE id > 1000
-- ;

-- name: avg_int_truncates
SELECT dept_id, AVG(salary), AVG(bonus) FROM emp GROUP BY dept_id
-- pg-replace: AVG(salary), AVG(bonus) => TRUNC(AVG(salary))::int, TRUNC(AVG(bonus))::int
-- ;

-- name: avg_by_sum_over_count
SELECT grade, SUM(salary) / COUNT(salary), SUM(bonus) / COUNT(bonus) FROM emp GROUP BY grade
-- ;

-- name: avg_decimal_cast
SELECT product, CAST(AVG(price) AS decimal(12, 2)), SUM(price), COUNT(*) FROM sales GROUP BY product
-- ;

-- name: float_sum
SELECT yr, SUM(discount), MIN(discount), MAX(discount), COUNT(discount) FROM sales GROUP BY yr
-- ;

-- name: group_by_nullable_key
SELECT dept_id, COUNT(*), COUNT(salary), SUM(salary) FROM emp GROUP BY dept_id
-- ;

-- name: group_by_two_keys
SELECT dept_id, grade, COUNT(*), MAX(salary) FROM emp GROUP BY dept_id, grade
-- ;

-- name: group_by_expression
SELECT salary / 10000, COUNT(*) FROM emp GROUP BY salary / 10000
-- ;

-- name: having_count
SELECT name, COUNT(*) FROM emp GROUP BY name HAVING COUNT(*) > 12
-- ;

-- name: having_sum_and_where
SELECT dept_id, SUM(bonus) FROM emp WHERE grade > 1 GROUP BY dept_id HAVING SUM(bonus) > 2000 OR SUM(bonus) IS NULL
-- ;

-- name: count_distinct
SELECT dept_id, COUNT(DISTINCT name), COUNT(DISTINCT city), SUM(DISTINCT grade) FROM emp GROUP BY dept_id
-- ;

-- name: aggregate_of_case
SELECT grade, SUM(CASE WHEN bonus IS NULL THEN 1 ELSE 0 END), SUM(CASE WHEN bonus < 0 THEN bonus END) FROM emp GROUP BY grade
-- ;

-- name: having_without_group_by
SELECT COUNT(*) FROM emp HAVING COUNT(*) > 5
-- ;

-- ===================================================================
-- Ordering and paging

-- name: order_by_nullable_asc
-- ordered
SELECT id, dept_id FROM emp ORDER BY dept_id, id
-- pg-replace: ORDER BY dept_id, => ORDER BY dept_id NULLS FIRST,
-- ;

-- name: order_by_nullable_desc
-- ordered
SELECT id, salary FROM emp ORDER BY salary DESC, id DESC
-- pg-replace: salary DESC, => salary DESC NULLS LAST,
-- ;

-- name: order_by_strings_and_position
-- ordered
SELECT name, id FROM emp WHERE city = 'oslo' ORDER BY 1, 2 DESC
-- ;

-- name: order_by_alias_and_expression
-- ordered
SELECT id, salary - 40000 AS extra FROM emp WHERE salary IS NOT NULL ORDER BY extra DESC, id
-- ;

-- name: offset_fetch
-- ordered
SELECT id, name FROM emp ORDER BY name, id OFFSET 20 ROWS FETCH NEXT 15 ROWS ONLY
-- ;

-- name: offset_only
-- ordered
SELECT id FROM sales ORDER BY price DESC, id OFFSET 590 ROWS
-- ;

-- name: top_vs_limit
-- ordered
SELECT TOP (7) id, price FROM sales ORDER BY price, id
-- pg: SELECT id, price FROM sales ORDER BY price, id LIMIT 7
-- ;

-- name: distinct_single
SELECT DISTINCT city FROM emp
-- ;

-- name: distinct_multi
SELECT DISTINCT dept_id, grade FROM emp WHERE grade < 3
-- ;

-- name: distinct_ordered
-- ordered
SELECT DISTINCT name FROM emp ORDER BY name
-- ;

-- ===================================================================
-- Joins

-- name: inner_join
SELECT e.id, e.name, d.name FROM emp e INNER JOIN dept d ON d.id = e.dept_id
-- ;

-- name: inner_join_extra_condition
SELECT e.id, d.name FROM emp e JOIN dept d ON d.id = e.dept_id AND e.salary > d.budget * 3
-- ;

-- name: left_join
SELECT d.id, d.name, e.id FROM dept d LEFT JOIN emp e ON e.dept_id = d.id AND e.grade = 5
-- ;

-- name: left_join_anti
SELECT e.id, e.dept_id FROM emp e LEFT OUTER JOIN dept d ON d.id = e.dept_id WHERE d.id IS NULL
-- ;

-- name: right_join
SELECT e.id, d.id, d.region FROM emp e RIGHT JOIN dept d ON e.dept_id = d.id AND e.salary > 110000
-- ;

-- name: full_join
SELECT e.id, e.dept_id, d.id FROM emp e FULL OUTER JOIN dept d ON e.dept_id = d.id WHERE e.id IS NULL OR e.id % 17 = 0
-- ;

-- name: full_join_on_nullable_keys
SELECT a.id, b.id FROM tri a FULL JOIN tri b ON a.a = b.b
-- ;

-- name: cross_join
SELECT d.id, t.id FROM dept d CROSS JOIN tri t WHERE d.id <= 3
-- ;

-- name: comma_join
SELECT COUNT(*), SUM(t.a), MAX(d.budget) FROM dept d, tri t
-- ;

-- name: self_join_manager
SELECT e.id, m.id, m.name FROM emp e JOIN emp m ON m.id = e.manager_id WHERE e.grade = m.grade
-- ;

-- name: three_table_join
SELECT d.name, e.name, s.product, s.qty FROM dept d JOIN emp e ON e.dept_id = d.id JOIN sales s ON s.emp_id = e.id WHERE s.yr = 2021
-- ;

-- name: join_then_group
SELECT d.region, COUNT(*), SUM(s.qty), SUM(s.price) FROM sales s JOIN emp e ON e.id = s.emp_id LEFT JOIN dept d ON d.id = e.dept_id GROUP BY d.region
-- ;

-- name: left_join_group_count
-- ordered
SELECT d.id, COUNT(e.id), COUNT(*), SUM(e.salary) FROM dept d LEFT JOIN emp e ON e.dept_id = d.id GROUP BY d.id ORDER BY d.id
-- ;

-- name: non_equi_join
SELECT a.id, b.id FROM dept a JOIN dept b ON a.budget < b.budget AND b.id < a.id
-- ;

-- ===================================================================
-- Set operators

-- name: union
SELECT dept_id FROM emp UNION SELECT id FROM dept
-- ;

-- name: union_all
SELECT city FROM emp WHERE grade = 1 UNION ALL SELECT region FROM dept
-- ;

-- name: except
SELECT id FROM dept EXCEPT SELECT dept_id FROM emp
-- ;

-- name: intersect
SELECT dept_id FROM emp INTERSECT SELECT id FROM dept WHERE region IS NOT NULL
-- ;

-- name: intersect_with_nulls
SELECT a FROM tri INTERSECT SELECT b FROM tri WHERE id > 4
-- ;

-- name: union_ordered
-- ordered
SELECT name, 1 FROM emp WHERE id < 10 UNION SELECT product, 2 FROM sales WHERE id < 10 ORDER BY 2, 1
-- ;

-- name: except_multi_column
SELECT name, grade FROM emp EXCEPT SELECT name, grade FROM emp WHERE dept_id IS NOT NULL
-- ;

-- ===================================================================
-- Subqueries

-- name: scalar_subquery_select_list
-- ordered
SELECT e.id, (SELECT d.name FROM dept d WHERE d.id = e.dept_id), (SELECT COUNT(*) FROM sales s WHERE s.emp_id = e.id)
FROM emp e WHERE e.id <= 50 ORDER BY e.id
-- ;

-- name: scalar_subquery_where
SELECT id, salary FROM emp WHERE salary > (SELECT MAX(salary) FROM emp WHERE dept_id = 3)
-- ;

-- name: exists_correlated
SELECT d.id FROM dept d WHERE EXISTS (SELECT 1 FROM emp e WHERE e.dept_id = d.id AND e.grade = 5 AND e.bonus > 1500)
-- ;

-- name: not_exists_correlated
SELECT e.id FROM emp e WHERE NOT EXISTS (SELECT 1 FROM sales s WHERE s.emp_id = e.id)
-- ;

-- name: in_subquery
SELECT id, product FROM sales WHERE emp_id IN (SELECT id FROM emp WHERE city = 'akureyri' AND grade > 3)
-- ;

-- name: correlated_comparison
SELECT e.id, e.salary FROM emp e WHERE e.salary >= (SELECT MAX(x.salary) FROM emp x WHERE x.dept_id = e.dept_id)
-- ;

-- name: correlated_count_in_where
SELECT e.id FROM emp e WHERE (SELECT COUNT(*) FROM tags t WHERE t.emp_id = e.id) >= 4
-- ;

-- name: any_all
SELECT id FROM dept WHERE budget > ALL (SELECT budget FROM dept WHERE region = 'north') OR budget = ANY (SELECT budget FROM dept WHERE id < 3)
-- ;

-- name: in_subquery_with_nulls_in_outer
SELECT id, a FROM tri WHERE a IN (SELECT b FROM tri WHERE b IS NOT NULL)
-- ;

-- ===================================================================
-- Derived tables and CTEs

-- name: derived_table
SELECT t.dept_id, t.n FROM (SELECT dept_id, COUNT(*) AS n FROM emp GROUP BY dept_id) AS t WHERE t.n > 25
-- ;

-- name: derived_table_join
SELECT d.name, t.total FROM dept d JOIN (SELECT e.dept_id, SUM(s.qty) AS total FROM emp e JOIN sales s ON s.emp_id = e.id GROUP BY e.dept_id) t ON t.dept_id = d.id
-- ;

-- name: derived_table_column_aliases
SELECT x.k, x.c FROM (SELECT grade, COUNT(*) FROM emp GROUP BY grade) AS x (k, c)
-- ;

-- name: values_table
SELECT v.a, v.b FROM (VALUES (1, 'x'), (2, 'y'), (3, NULL), (2, 'y')) AS v (a, b)
-- ;

-- name: cte_simple
WITH rich AS (SELECT id, dept_id FROM emp WHERE salary > 100000)
SELECT dept_id, COUNT(*) FROM rich GROUP BY dept_id
-- ;

-- name: cte_chained_and_reused
WITH per_emp AS (SELECT emp_id, SUM(qty) AS q FROM sales GROUP BY emp_id),
     top_emp AS (SELECT emp_id FROM per_emp WHERE q > 30)
SELECT p.emp_id, p.q, (SELECT COUNT(*) FROM top_emp) FROM per_emp p WHERE p.emp_id IN (SELECT emp_id FROM top_emp)
-- ;

-- name: cte_joined_twice
WITH g AS (SELECT grade, MAX(salary) AS best FROM emp GROUP BY grade)
SELECT a.grade, b.grade FROM g a JOIN g b ON a.best < b.best
-- ;

-- ===================================================================
-- Window functions

-- name: row_number_partition
-- ordered
SELECT id, dept_id, salary, ROW_NUMBER() OVER (PARTITION BY dept_id ORDER BY salary DESC, id) FROM emp ORDER BY id
-- pg-replace: salary DESC, id) => salary DESC NULLS LAST, id)
-- ;

-- name: top_n_per_group
SELECT t.dept_id, t.id FROM (SELECT dept_id, id, ROW_NUMBER() OVER (PARTITION BY dept_id ORDER BY id DESC) AS rn FROM emp) t WHERE t.rn <= 2
-- ;

-- name: rank_dense_rank
-- ordered
SELECT id, grade, RANK() OVER (ORDER BY grade), DENSE_RANK() OVER (ORDER BY grade), RANK() OVER (PARTITION BY grade ORDER BY name) FROM emp ORDER BY id
-- ;

-- name: sum_over_partition
-- ordered
SELECT id, dept_id, SUM(salary) OVER (PARTITION BY dept_id), COUNT(*) OVER (PARTITION BY dept_id), COUNT(*) OVER () FROM emp ORDER BY id
-- ;

-- name: running_sum_with_ties
-- ordered
SELECT id, grade, SUM(bonus) OVER (ORDER BY grade), SUM(salary) OVER (PARTITION BY grade ORDER BY id) FROM emp ORDER BY id
-- ;

-- name: min_max_over
-- ordered
SELECT id, MIN(price) OVER (PARTITION BY product), MAX(qty) OVER (PARTITION BY yr, product) FROM sales ORDER BY id
-- ;

-- name: lag_lead
-- ordered
SELECT id, LAG(salary) OVER (ORDER BY id), LEAD(salary, 2) OVER (ORDER BY id), LAG(name, 1, 'none') OVER (PARTITION BY grade ORDER BY id) FROM emp ORDER BY id
-- ;

-- name: lag_lead_over_sales
-- ordered
SELECT id, emp_id, LEAD(price, 1, 0) OVER (PARTITION BY product ORDER BY yr, id), LAG(qty, 3) OVER (ORDER BY price, id) FROM sales ORDER BY id
-- ;

-- name: window_over_join
-- ordered
SELECT s.id, e.name, ROW_NUMBER() OVER (PARTITION BY e.id ORDER BY s.price DESC, s.id) FROM sales s JOIN emp e ON e.id = s.emp_id ORDER BY s.id
-- ;

-- name: window_sum_of_count
-- ordered
SELECT grade, COUNT(*), SUM(COUNT(*)) OVER (ORDER BY grade) FROM emp GROUP BY grade ORDER BY grade
-- ;

-- name: window_rank_of_count
-- ordered
SELECT grade, COUNT(*), RANK() OVER (ORDER BY COUNT(*) DESC) FROM emp GROUP BY grade ORDER BY grade
-- ;

-- name: window_frame_rows
-- ordered
SELECT id, SUM(qty) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), MAX(price) OVER (PARTITION BY product ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)
FROM sales ORDER BY id
-- ;

-- name: window_order_by_nullable_key
-- ordered
SELECT id, salary, ROW_NUMBER() OVER (ORDER BY salary, id), SUM(bonus) OVER (ORDER BY salary DESC, id) FROM emp ORDER BY id
-- pg-replace: (ORDER BY salary, id) => (ORDER BY salary NULLS FIRST, id)
-- pg-replace: (ORDER BY salary DESC, id) => (ORDER BY salary DESC NULLS LAST, id)
-- ;

-- name: rank_over_nullable_partition_key
-- ordered
SELECT id, city, DENSE_RANK() OVER (ORDER BY city), RANK() OVER (PARTITION BY city ORDER BY grade DESC) FROM emp ORDER BY id
-- pg-replace: (ORDER BY city) => (ORDER BY city NULLS FIRST)
-- ;

-- name: ntile
-- ordered
SELECT id, NTILE(4) OVER (ORDER BY id), NTILE(3) OVER (PARTITION BY grade ORDER BY id) FROM emp ORDER BY id
-- ;

-- name: first_last_value
-- ordered
SELECT id, FIRST_VALUE(name) OVER (PARTITION BY grade ORDER BY id), LAST_VALUE(name) OVER (PARTITION BY grade ORDER BY id),
       LAST_VALUE(dept_id) OVER (PARTITION BY grade ORDER BY dept_id), FIRST_VALUE(id) OVER (PARTITION BY dept_id ORDER BY grade DESC, id)
FROM emp WHERE dept_id IS NOT NULL ORDER BY id
-- ;

-- name: range_frame_with_peers
-- ordered
-- The default frame (RANGE ... CURRENT ROW) takes in every peer of the current row.
SELECT id, MAX(id) OVER (PARTITION BY grade ORDER BY dept_id), COUNT(*) OVER (ORDER BY grade DESC), SUM(id) OVER (ORDER BY grade RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
FROM emp WHERE dept_id IS NOT NULL ORDER BY id
-- ;

-- name: avg_over_int
-- ordered
SELECT id, AVG(salary) OVER (PARTITION BY dept_id) FROM emp ORDER BY id
-- pg-replace: AVG(salary) OVER (PARTITION BY dept_id) => TRUNC(AVG(salary) OVER (PARTITION BY dept_id))::int
-- ;

-- name: count_column_over_running
-- ordered
SELECT id, COUNT(bonus) OVER (PARTITION BY grade ORDER BY id), COUNT(*) OVER (PARTITION BY grade ORDER BY id) FROM emp ORDER BY id
-- ;

-- name: order_by_window_function
-- ordered
SELECT id, name FROM emp WHERE grade = 2 ORDER BY ROW_NUMBER() OVER (ORDER BY name DESC, id)
-- ;

-- name: window_over_distinct_derived
SELECT t.name, ROW_NUMBER() OVER (ORDER BY t.name) FROM (SELECT DISTINCT name FROM emp) t
-- ;

-- ===================================================================
-- More set operators, paging and expressions

-- name: set_operator_precedence
SELECT grade FROM emp WHERE grade < 3 UNION SELECT id FROM dept INTERSECT SELECT grade FROM emp
-- ;

-- name: except_chain
SELECT id FROM dept EXCEPT SELECT grade FROM emp EXCEPT SELECT 12
-- ;

-- name: except_with_nulls
SELECT a, b FROM tri EXCEPT SELECT b, a FROM tri WHERE a = 1
-- ;

-- name: union_mixed_types
SELECT salary FROM emp WHERE id < 20 UNION ALL SELECT price FROM sales WHERE id < 20
-- ;

-- name: union_null_and_int
SELECT NULL UNION SELECT 1 UNION SELECT NULL
-- ;

-- name: union_in_derived_table
SELECT u.k, COUNT(*) FROM (SELECT dept_id AS k FROM emp UNION ALL SELECT id FROM dept) u GROUP BY u.k
-- ;

-- name: union_order_by_alias
-- ordered
SELECT name AS n FROM emp WHERE id < 6 UNION SELECT product FROM sales WHERE id < 6 ORDER BY n DESC
-- ;

-- name: top_with_ties
-- Rows among ties come in any order: compared as a multiset.
SELECT TOP (5) WITH TIES grade, id FROM emp ORDER BY grade
-- pg: SELECT grade, id FROM emp ORDER BY grade FETCH FIRST 5 ROWS WITH TIES
-- ;

-- name: offset_fetch_with_expressions
-- ordered
SELECT id, price * 2 FROM sales WHERE yr = 2020 ORDER BY price * 2 DESC, id OFFSET (3 * 2) ROWS FETCH NEXT (2 + 3) ROWS ONLY
-- ;

-- name: distinct_with_order_by
-- ordered
SELECT DISTINCT grade, city FROM emp ORDER BY grade DESC, city
-- pg-replace: grade DESC, city => grade DESC, city NULLS FIRST
-- ;

-- name: order_by_case
-- ordered
SELECT id, grade FROM emp WHERE id < 50 ORDER BY CASE WHEN grade % 2 = 0 THEN 0 ELSE 1 END, grade DESC, id
-- ;

-- name: order_by_column_not_selected
-- ordered
SELECT name FROM emp WHERE id BETWEEN 200 AND 230 ORDER BY bonus DESC, id
-- pg-replace: bonus DESC, id => bonus DESC NULLS LAST, id
-- ;

-- name: order_by_aggregate_not_selected
-- ordered
SELECT product FROM sales GROUP BY product ORDER BY SUM(qty) DESC
-- ;

-- name: decimal_division_cast
-- ordered
SELECT id, CAST(price / qty AS decimal(12, 4)), CAST(price * price / 100 AS decimal(14, 2)), price % CAST(7 AS decimal(10, 0)) FROM sales WHERE id <= 50 ORDER BY id
-- ;

-- name: decimal_modulo_int
-- ordered
SELECT id, price % 7, price % 2.5, 12.34 % 7 FROM sales WHERE id <= 50 ORDER BY id
-- ;

-- name: float_expressions
-- ordered
SELECT id, discount * 3, discount + 0.25, discount * price, -discount FROM sales WHERE id <= 60 ORDER BY id
-- ;

-- name: mixed_numeric_comparisons
SELECT id FROM sales WHERE price > 50 AND discount < 0.2 AND qty * price >= 200.5
-- ;

-- name: case_mixed_result_types
-- ordered
SELECT id, CASE WHEN grade = 1 THEN 1 WHEN grade = 2 THEN 2.5 ELSE NULL END, CASE WHEN bonus > 0 THEN bonus ELSE salary END FROM emp WHERE id <= 40 ORDER BY id
-- ;

-- name: between_and_not_between_with_nulls
SELECT id FROM emp WHERE bonus BETWEEN -100 AND 100 OR salary NOT BETWEEN 35000 AND 115000
-- ;

-- name: not_in_with_expression
SELECT id, a, b FROM tri WHERE NOT (a IN (0, b))
-- ;

-- name: null_expressions_is_null
SELECT id FROM tri WHERE (a + b) IS NULL AND COALESCE(a, b) IS NOT NULL
-- ;

-- name: string_comparisons
SELECT id, name FROM emp WHERE name < 'dee' AND name >= 'bo' AND city <> 'oslo'
-- ;

-- name: select_without_from
SELECT 1 + 2, 7 / 2, -7 / 2, -7 % 3, 'abc', NULL, 2.50 * 2
-- ;

-- name: scalar_functions_on_null
SELECT UPPER(NULL), ABS(NULL), COALESCE(NULL, NULL, 3), NULLIF(NULL, 1)
-- pg: SELECT UPPER(NULL), ABS(NULL::int), COALESCE(NULL, NULL, 3), NULLIF(NULL::int, 1)
-- ;

-- ===================================================================
-- More subqueries and joins

-- name: nested_correlated_two_levels
SELECT d.id FROM dept d WHERE EXISTS (SELECT 1 FROM emp e WHERE e.dept_id = d.id AND EXISTS (SELECT 1 FROM sales s WHERE s.emp_id = e.id AND s.qty > 18 AND s.yr = d.id + 2015))
-- ;

-- name: correlated_subquery_outer_reference_in_select
SELECT e.id, (SELECT MAX(s.price) + e.grade FROM sales s WHERE s.emp_id = e.id) FROM emp e WHERE e.id % 11 = 0
-- ;

-- name: scalar_subquery_empty_is_null
SELECT d.id, (SELECT MAX(e.salary) FROM emp e WHERE e.dept_id = d.id), (SELECT e.id FROM emp e WHERE e.dept_id = d.id AND e.id = 1) FROM dept d
-- ;

-- name: subquery_in_having
SELECT dept_id, COUNT(*) FROM emp GROUP BY dept_id HAVING COUNT(*) > (SELECT COUNT(*) / 12 FROM emp)
-- ;

-- name: subquery_on_grouping_column
SELECT e.dept_id, COUNT(*), (SELECT d.name FROM dept d WHERE d.id = e.dept_id) FROM emp e GROUP BY e.dept_id
-- ;

-- name: exists_in_case
-- ordered
SELECT d.id, CASE WHEN EXISTS (SELECT 1 FROM emp e WHERE e.dept_id = d.id AND e.salary > 115000) THEN 1 ELSE 0 END,
       CASE WHEN d.id IN (SELECT dept_id FROM emp WHERE grade = 5 AND city = 'oslo') THEN 1 ELSE 0 END
FROM dept d ORDER BY d.id
-- ;

-- name: in_subquery_does_not_duplicate
SELECT e.id FROM emp e WHERE e.id IN (SELECT t.emp_id FROM tags t WHERE t.tag IN ('red', 'gold'))
-- ;

-- name: not_exists_with_null_correlation
SELECT e.id FROM emp e WHERE NOT EXISTS (SELECT 1 FROM dept d WHERE d.id = e.dept_id)
-- ;

-- name: subquery_in_on_clause
SELECT e.id, d.id FROM emp e JOIN dept d ON d.id = e.dept_id AND e.salary > (SELECT MIN(x.salary) + 60000 FROM emp x WHERE x.dept_id = d.id)
-- ;

-- name: join_on_or
SELECT a.id, b.id FROM dept a JOIN dept b ON a.id = b.id + 1 OR (a.region = b.region AND a.id < b.id)
-- ;

-- name: left_join_derived_aggregate
SELECT d.id, t.n, COALESCE(t.n, 0) FROM dept d LEFT JOIN (SELECT dept_id, COUNT(*) AS n FROM emp WHERE grade = 3 GROUP BY dept_id) t ON t.dept_id = d.id
-- ;

-- name: cross_join_aggregate
SELECT e.id, e.salary - m.best FROM emp e CROSS JOIN (SELECT MAX(salary) AS best FROM emp) m WHERE e.id < 30
-- ;

-- name: right_join_where_left_null
SELECT d.id FROM emp e RIGHT OUTER JOIN dept d ON d.id = e.dept_id WHERE e.id IS NULL
-- ;

-- name: full_join_aggregate
SELECT COUNT(*), COUNT(s.id), COUNT(e.id) FROM sales s FULL JOIN emp e ON e.id = s.emp_id
-- ;

-- name: full_join_derived_tables
SELECT a.yr, a.n, b.yr, b.n FROM (SELECT yr, COUNT(*) AS n FROM sales WHERE product = 'fig' GROUP BY yr) a
FULL JOIN (SELECT yr, COUNT(*) AS n FROM sales WHERE product = 'kiwi' AND yr > 2020 GROUP BY yr) b ON a.yr = b.yr + 1
-- ;

-- name: join_expression_key
SELECT s.id, e.id FROM sales s JOIN emp e ON e.id = s.emp_id + 1 WHERE s.yr = 2022
-- ;

-- name: count_over_distinct_derived
SELECT COUNT(*) FROM (SELECT DISTINCT dept_id, city FROM emp) t
-- ;

-- name: cte_with_union_and_window
WITH people AS (SELECT id, grade FROM emp WHERE grade = 1 UNION ALL SELECT id, grade FROM emp WHERE grade = 5)
SELECT id, grade, RANK() OVER (PARTITION BY grade ORDER BY id DESC) FROM people
-- ;

-- name: cte_in_subquery
WITH busy AS (SELECT emp_id FROM sales GROUP BY emp_id HAVING COUNT(*) >= 4)
SELECT e.id, e.name FROM emp e WHERE e.id IN (SELECT emp_id FROM busy) AND NOT EXISTS (SELECT 1 FROM busy b WHERE b.emp_id = e.manager_id)
-- ;

-- name: group_by_case_expression
SELECT CASE WHEN salary < 60000 THEN 'low' WHEN salary < 90000 THEN 'mid' ELSE 'high' END, COUNT(*)
FROM emp GROUP BY CASE WHEN salary < 60000 THEN 'low' WHEN salary < 90000 THEN 'mid' ELSE 'high' END
-- ;

-- name: group_by_column_not_selected
SELECT COUNT(*), MAX(id) FROM emp GROUP BY city, grade
-- ;

-- name: having_on_empty_input
SELECT COUNT(*) FROM emp WHERE id < 0 HAVING COUNT(*) = 0
-- ;

-- name: min_max_strings_grouped
SELECT grade, MIN(name), MAX(name), MIN(city), MAX(city) FROM emp GROUP BY grade
-- ;

-- name: sum_of_expressions
SELECT yr, SUM(price * qty), SUM(qty * 2 + 1), COUNT(DISTINCT emp_id), MAX(price) - MIN(price) FROM sales GROUP BY yr
-- ;

-- ===================================================================
-- Edge cases of subqueries, precedence, joins and windows

-- name: scalar_subquery_top_1
-- ordered
SELECT e.id, (SELECT TOP (1) s.product FROM sales s WHERE s.emp_id = e.id ORDER BY s.price DESC, s.id) FROM emp e WHERE e.id <= 40 ORDER BY e.id
-- pg-replace: SELECT TOP (1) s.product => SELECT s.product
-- pg-replace: s.price DESC, s.id) => s.price DESC, s.id LIMIT 1)
-- ;

-- name: in_subquery_with_top
SELECT id FROM emp WHERE id IN (SELECT TOP (10) emp_id FROM sales WHERE emp_id IS NOT NULL ORDER BY qty DESC, id)
-- pg-replace: SELECT TOP (10) emp_id => SELECT emp_id
-- pg-replace: qty DESC, id) => qty DESC NULLS LAST, id LIMIT 10)
-- ;

-- name: exists_over_aggregate_is_always_true
SELECT COUNT(*) FROM dept WHERE EXISTS (SELECT COUNT(*) FROM emp WHERE 1 = 0)
-- ;

-- name: not_in_empty_subquery_keeps_nulls
SELECT id, a FROM tri WHERE a NOT IN (SELECT b FROM tri WHERE 1 = 0)
-- ;

-- name: in_empty_subquery
-- empty
SELECT id FROM tri WHERE a IN (SELECT b FROM tri WHERE 1 = 0)
-- ;

-- name: all_and_any_over_empty_set
SELECT id, a FROM tri WHERE a > ALL (SELECT b FROM tri WHERE 1 = 0) AND NOT (a = ANY (SELECT b FROM tri WHERE 1 = 0))
-- ;

-- name: all_with_null_in_set
-- id > ALL of {0, 1, NULL} is false for 1 and unknown above it.
SELECT id FROM dept WHERE id > ALL (SELECT a FROM tri) OR NOT (id > ALL (SELECT a FROM tri))
-- ;

-- name: sum_of_only_nulls
SELECT grade, SUM(CASE WHEN grade > 10 THEN salary END), COUNT(CASE WHEN grade > 10 THEN 1 END), MAX(CASE WHEN grade = 1 THEN name END) FROM emp GROUP BY grade
-- ;

-- name: count_distinct_with_nulls
SELECT COUNT(DISTINCT dept_id), COUNT(DISTINCT bonus), COUNT(DISTINCT city), COUNT(*) FROM emp
-- ;

-- name: and_or_not_precedence
SELECT id, a, b FROM tri WHERE a = 1 OR b = 1 AND a = 0 OR NOT a = 1 AND b IS NULL
-- ;

-- name: arithmetic_precedence
SELECT -2 * 3 + 4 % 3, 10 - 2 - 3, 2 * 3 / 4, 7 / 2 * 2, -(3 - 5) * 2, 100 / 10 / 5, 17 % 5 % 3
-- ;

-- name: bitwise_operators
-- ordered
SELECT id, grade & 1, grade | 8, grade ^ 3, id & grade FROM emp WHERE id <= 20 ORDER BY id
-- pg-replace: grade ^ 3 => grade # 3
-- ;

-- name: nested_case
-- ordered
SELECT id, CASE WHEN a IS NULL THEN CASE WHEN b IS NULL THEN 'both' ELSE 'a' END WHEN b IS NULL THEN 'b' ELSE CASE a + b WHEN 2 THEN 'two' ELSE 'some' END END FROM tri ORDER BY id
-- ;

-- name: partition_by_expression
-- ordered
SELECT id, ROW_NUMBER() OVER (PARTITION BY grade % 2 ORDER BY id DESC), SUM(grade) OVER (PARTITION BY id % 3, grade) FROM emp ORDER BY id
-- ;

-- name: lag_with_column_default
-- ordered
SELECT id, LAG(bonus, 2, salary) OVER (PARTITION BY dept_id ORDER BY id), LEAD(id, 5, -1) OVER (PARTITION BY city ORDER BY id) FROM emp ORDER BY id
-- ;

-- name: window_over_empty_input
-- empty
SELECT id, ROW_NUMBER() OVER (ORDER BY id), SUM(id) OVER () FROM emp WHERE id < 0
-- ;

-- name: running_sum_descending
-- ordered
SELECT id, SUM(qty) OVER (PARTITION BY product ORDER BY price DESC, id), COUNT(qty) OVER (ORDER BY yr DESC) FROM sales ORDER BY id
-- ;

-- name: window_null_partition
SELECT dept_id, COUNT(*) OVER (PARTITION BY dept_id), DENSE_RANK() OVER (PARTITION BY dept_id ORDER BY grade) FROM emp
-- ;

-- name: filter_on_window_in_cte
WITH ranked AS (SELECT id, product, price, RANK() OVER (PARTITION BY product ORDER BY price DESC) AS r FROM sales)
SELECT product, id, price FROM ranked WHERE r <= 3
-- ;

-- name: union_all_order_offset_fetch
-- ordered
SELECT id, 'e' FROM emp WHERE grade = 1 UNION ALL SELECT id, 'd' FROM dept ORDER BY 1 DESC, 2 OFFSET 2 ROWS FETCH NEXT 6 ROWS ONLY
-- ;

-- name: derived_table_with_offset_fetch
SELECT t.id FROM (SELECT id FROM emp ORDER BY salary DESC, id OFFSET 5 ROWS FETCH NEXT 10 ROWS ONLY) t
-- pg-replace: salary DESC, id => salary DESC NULLS LAST, id
-- ;

-- name: cte_with_column_list
WITH c (g, n, top_salary) AS (SELECT grade, COUNT(*), MAX(salary) FROM emp GROUP BY grade)
SELECT g, n, top_salary FROM c WHERE n > 50
-- ;

-- name: cte_self_join_and_reference_chain
WITH a AS (SELECT dept_id, COUNT(*) AS n FROM emp GROUP BY dept_id),
     b AS (SELECT x.dept_id, x.n FROM a x JOIN a y ON x.n < y.n AND y.dept_id = 1)
SELECT dept_id, n FROM b
-- ;

-- name: left_join_then_inner_join
SELECT d.id, e.id, s.id FROM dept d LEFT JOIN emp e ON e.dept_id = d.id JOIN sales s ON s.emp_id = e.id WHERE s.yr = 2019 AND s.qty > 15
-- ;

-- name: nested_join_parentheses
SELECT d.id, e.id, s.id FROM dept d LEFT JOIN (emp e JOIN sales s ON s.emp_id = e.id AND s.qty > 18) ON e.dept_id = d.id
-- ;

-- name: right_then_left_join
SELECT e.id, d.id, t.tag FROM emp e RIGHT JOIN dept d ON d.id = e.dept_id AND e.grade = 4 LEFT JOIN tags t ON t.emp_id = e.id
-- ;

-- name: full_join_coalesce_keys
SELECT COALESCE(a.k, b.k), a.n, b.n FROM (SELECT dept_id AS k, COUNT(*) AS n FROM emp GROUP BY dept_id) a
FULL JOIN (SELECT id AS k, budget AS n FROM dept) b ON a.k = b.k
-- ;

-- name: join_on_is_null_condition
SELECT e.id, d.id FROM emp e JOIN dept d ON e.dept_id = d.id OR (e.dept_id IS NULL AND d.id = 12)
-- ;

-- name: cross_join_values
SELECT v.k, COUNT(*) FROM emp e CROSS JOIN (VALUES (1), (2), (3)) AS v (k) WHERE e.grade = v.k GROUP BY v.k
-- ;

-- name: group_by_ordered_by_expression
-- ordered
SELECT grade, dept_id, COUNT(*) FROM emp WHERE dept_id IS NOT NULL GROUP BY grade, dept_id ORDER BY grade * 100 - dept_id, COUNT(*) DESC
-- ;

-- name: having_with_case_and_min
SELECT city, COUNT(*) FROM emp GROUP BY city HAVING MIN(CASE WHEN bonus IS NULL THEN 0 ELSE bonus END) < 0 AND MAX(grade) = 5
-- ;

-- name: distinct_expression_with_null
SELECT DISTINCT bonus / 1000, CASE WHEN city IS NULL THEN 1 END FROM emp
-- ;

-- ===================================================================
-- Errors both systems raise

-- name: error_divide_by_zero
-- error
SELECT id, salary / (grade - grade) FROM emp
-- ;

-- name: error_int_overflow
-- error
SELECT id, salary * 100000 FROM emp
-- ;

-- name: error_int_constant_overflow
-- error
SELECT 2147483647 + 1
-- ;

-- name: error_scalar_subquery_several_rows
-- error
SELECT d.id, (SELECT e.id FROM emp e WHERE e.dept_id = d.id) FROM dept d
-- ;

-- ===================================================================
-- Values that compare equal across types, and caching of subqueries

-- name: union_dedupes_across_scales
SELECT CAST(1.5 AS decimal(4, 1)) UNION SELECT CAST(1.50 AS decimal(8, 2)) UNION SELECT 2 UNION SELECT 2.00
-- ;

-- name: group_by_decimal_and_int_mix
SELECT k, COUNT(*) FROM (SELECT CAST(grade AS decimal(6, 2)) AS k FROM emp UNION ALL SELECT grade FROM emp WHERE id < 50) t GROUP BY k
-- ;

-- name: in_list_mixed_numeric_types
SELECT id, price FROM sales WHERE price IN (10, 20.5, 99) OR qty IN (1.0, 2.5) AND yr = 2020
-- ;

-- name: int_column_against_decimal_constant
SELECT COUNT(*) FROM emp WHERE salary > 50000.5 AND bonus <= 100.25 AND grade = 3.0
-- ;

-- name: string_constant_against_int_column
SELECT COUNT(*) FROM emp WHERE grade = '3'
-- ;

-- name: correlated_on_two_outer_columns
-- A subquery cache keyed on one outer column only would repeat answers here.
-- ordered
SELECT e.id, (SELECT COUNT(*) FROM emp x WHERE x.name = e.name AND x.id < e.id), (SELECT MAX(x.id) FROM emp x WHERE x.grade = e.grade AND x.id < e.id)
FROM emp e ORDER BY e.id
-- ;

-- name: correlated_exists_on_joined_outer
SELECT e.id, d.id FROM emp e JOIN dept d ON d.id = e.dept_id
WHERE EXISTS (SELECT 1 FROM sales s WHERE s.emp_id = e.id AND s.yr = 2019 + d.id % 5)
-- ;

-- name: correlated_in_with_duplicate_outer_values
SELECT s.id FROM sales s WHERE s.product IN (SELECT t.tag FROM tags t WHERE t.emp_id = s.emp_id) OR s.qty = (SELECT MAX(x.qty) FROM sales x WHERE x.product = s.product AND x.yr = s.yr)
-- ;

-- name: uncorrelated_subquery_repeated
SELECT e.id FROM emp e WHERE e.salary > (SELECT MAX(salary) - 5000 FROM emp) OR e.bonus = (SELECT MIN(bonus) FROM emp)
-- ;

-- name: aggregate_of_aggregate_via_derived
SELECT MAX(n), MIN(n), SUM(n), COUNT(*) FROM (SELECT dept_id, COUNT(*) AS n FROM emp GROUP BY dept_id) t
-- ;

-- name: float_group_and_join
SELECT a.discount, COUNT(*) FROM sales a JOIN sales b ON a.discount = b.discount + 0.1 WHERE a.id < 100 GROUP BY a.discount
-- ;

-- name: offset_past_end
-- empty
SELECT id FROM dept ORDER BY id OFFSET 50 ROWS
-- ;

-- name: window_after_having
-- ordered
SELECT dept_id, SUM(salary), RANK() OVER (ORDER BY SUM(salary) DESC), ROW_NUMBER() OVER (ORDER BY dept_id) FROM emp WHERE dept_id IS NOT NULL GROUP BY dept_id HAVING COUNT(*) > 20 ORDER BY dept_id
-- ;

-- name: count_join_duplicates
SELECT e.id, COUNT(*), COUNT(t.tag), COUNT(DISTINCT t.tag) FROM emp e JOIN tags t ON t.emp_id = e.id GROUP BY e.id HAVING COUNT(*) > 2
-- ;

-- name: decimal_rounding_on_cast
-- ordered
SELECT id, CAST(price / 3 AS decimal(10, 1)), CAST(price * 1.005 AS decimal(10, 2)), CAST(-price / 7 AS decimal(10, 3)) FROM sales WHERE id <= 60 ORDER BY id
-- ;

-- name: select_star_over_join
SELECT * FROM dept d JOIN tri t ON t.id = d.id
-- ;

-- name: qualified_star_and_columns
-- ordered
SELECT d.*, t.a FROM dept d LEFT JOIN tri t ON t.a = d.id ORDER BY d.id, t.a
-- pg-replace: ORDER BY d.id, t.a => ORDER BY d.id, t.a NULLS FIRST
-- ;

-- name: union_all_untyped_nulls
SELECT NULL, 1 UNION ALL SELECT 'a', NULL UNION ALL SELECT 'b', 2
-- pg: SELECT NULL::text, 1 UNION ALL SELECT 'a', NULL UNION ALL SELECT 'b', 2
-- ;

-- name: intersect_multi_column_distinct
SELECT grade, city FROM emp WHERE id < 150 INTERSECT SELECT grade, city FROM emp WHERE id >= 150
-- ;

-- name: window_in_case_and_arithmetic
-- ordered
SELECT id, CASE WHEN ROW_NUMBER() OVER (PARTITION BY product ORDER BY price, id) = 1 THEN 'cheapest' ELSE 'other' END,
       SUM(qty) OVER () - qty, 100 * qty / SUM(qty) OVER (PARTITION BY product), SUM(price) OVER (PARTITION BY product, yr)
FROM sales WHERE qty IS NOT NULL ORDER BY id
-- ;

-- name: lag_over_nulls
-- ordered
SELECT id, bonus, LAG(bonus) OVER (ORDER BY id), LEAD(bonus) OVER (ORDER BY id), LAG(city, 2) OVER (PARTITION BY grade ORDER BY id) FROM emp WHERE id <= 100 ORDER BY id
-- ;

-- name: between_strings
SELECT id, name FROM emp WHERE name BETWEEN 'ivy' AND 'pam' AND grade = 2
-- ;

-- name: order_by_case_descending
-- ordered
SELECT id, name FROM emp WHERE grade = 4 ORDER BY CASE WHEN city IS NULL THEN 'zzz' ELSE city END DESC, name, id
-- ;

-- name: subquery_on_grouping_column_correlated
SELECT e.grade, (SELECT COUNT(*) FROM emp x WHERE x.grade = e.grade) FROM emp e GROUP BY e.grade
-- ;

-- name: having_with_uncorrelated_subquery
SELECT grade, SUM(salary) FROM emp GROUP BY grade HAVING SUM(salary) > (SELECT SUM(salary) / 6 FROM emp)
-- ;

-- name: having_with_correlated_exists
SELECT e.grade, MAX(e.salary) FROM emp e GROUP BY e.grade HAVING EXISTS (SELECT 1 FROM emp x WHERE x.grade = e.grade AND x.salary > 119000)
-- ;

-- name: distinct_top
-- ordered
SELECT DISTINCT TOP (3) grade FROM emp ORDER BY grade DESC
-- pg: SELECT DISTINCT grade FROM emp ORDER BY grade DESC LIMIT 3
-- ;

-- name: correlated_any
SELECT COUNT(*) FROM emp e WHERE e.salary > ANY (SELECT x.salary FROM emp x WHERE x.dept_id = e.dept_id AND x.id <> e.id)
-- ;

-- name: signs_of_division_and_modulo
SELECT id, -bonus % 300, bonus % -300, -(bonus / -300), bonus / -7 FROM emp WHERE bonus IS NOT NULL
-- ;

-- name: float_decimal_casts
SELECT id, CAST(discount AS decimal(6, 3)), CAST(price AS float) / 3 FROM sales WHERE id < 40
-- ;

-- name: group_by_rollup
SELECT grade, dept_id, COUNT(*), SUM(salary) FROM emp GROUP BY ROLLUP (grade, dept_id)
-- ;

-- name: grouping_sets_listed
SELECT grade, dept_id, COUNT(*), SUM(salary), GROUPING(grade), GROUPING(dept_id), GROUPING_ID(grade, dept_id)
FROM emp GROUP BY GROUPING SETS ((grade, dept_id), grade, ())
-- pg-replace: GROUPING_ID( => GROUPING(
-- ;

-- name: grouping_sets_crossed_with_a_key
SELECT yr, product, COUNT(*), SUM(qty) FROM sales GROUP BY yr, GROUPING SETS (product, ())
-- ;

-- name: grouping_sets_of_rollup_and_cube
SELECT grade, city, dept_id, COUNT(*), MAX(bonus), GROUPING_ID(grade, city, dept_id)
FROM emp GROUP BY GROUPING SETS (ROLLUP (grade, city), CUBE (dept_id))
-- pg-replace: GROUPING_ID( => GROUPING(
-- ;

-- name: grouping_sets_lists_and_repeats
SELECT grade, dept_id, city, COUNT(*) FROM emp WHERE grade < 3
GROUP BY GROUPING SETS (grade, (grade), ROLLUP ((grade, dept_id), city))
-- ;

-- name: grouping_sets_crossed
SELECT product, yr, SUM(price) FROM sales GROUP BY GROUPING SETS (product, ()), GROUPING SETS (yr, ())
-- ;

-- name: grouping_id_in_having
SELECT grade, dept_id, COUNT(*) FROM emp GROUP BY CUBE (grade, dept_id) HAVING GROUPING_ID(grade, dept_id) IN (1, 2)
-- pg-replace: GROUPING_ID( => GROUPING(
-- ;

-- name: grand_total_of_no_rows
SELECT COUNT(*), SUM(salary) FROM emp WHERE id < 0 GROUP BY ()
-- ;

-- name: stream_aggregate_in_key_order
-- ordered
SELECT dept_id, COUNT(*), SUM(salary), MIN(name), COUNT(DISTINCT grade) FROM emp GROUP BY dept_id ORDER BY dept_id
-- pg-replace: ORDER BY dept_id => ORDER BY dept_id NULLS FIRST
-- ;

-- name: stream_aggregate_top
-- ordered
SELECT TOP (4) dept_id, COUNT(*) FROM emp WHERE grade > 1 GROUP BY dept_id ORDER BY dept_id DESC
-- pg: SELECT dept_id, COUNT(*) FROM emp WHERE grade > 1 GROUP BY dept_id ORDER BY dept_id DESC NULLS LAST LIMIT 4
-- ;
