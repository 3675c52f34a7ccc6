/*
 * A YCSB DB for the interop tests of the SQL targets: the JDBC calls YCSB's jdbc binding
 * (site.ycsb.db.JdbcDBClient, 0.17.0) makes, with the same properties and statuses, since that
 * binding is not published on Maven Central (only site.ycsb:core is). Written for ycsbctl from the
 * binding's behaviour, not from its code; infra/ycsb-jdbc/interop.sh runs the real binding, built
 * from YCSB's source, by hand.
 *
 * What it reproduces:
 * - properties db.driver (loaded with Class.forName), db.url, db.user, db.passwd (both "" when
 *   absent); one java.sql.Connection per DB instance (one per client thread), autocommit on;
 * - one PreparedStatement per statement shape, kept for the life of the connection, with the SQL
 *   text of the binding's default flavour:
 *     read    SELECT * FROM t WHERE YCSB_KEY = ?
 *     scan    SELECT * FROM t WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?
 *     insert  INSERT INTO t (YCSB_KEY,f1,f2) VALUES(?,?,?)
 *     update  UPDATE t SET f1=?, f2=? WHERE YCSB_KEY = ?
 *     delete  DELETE FROM t WHERE YCSB_KEY = ?
 *   with the field names as YCSB hands them (lower case, unquoted) in the order the values map
 *   iterates, every value bound with setString;
 * - a read or scan takes each field asked for with ResultSet.getString(field), i.e. it relies on
 *   the driver matching "field0" to the column FIELD0; nothing is returned when no fields are asked;
 * - statuses: a read with no row is NOT_FOUND; an insert, update or delete that changed a number of
 *   rows other than 1 is UNEXPECTED_STATE; a scan is OK however many rows it finds; any
 *   SQLException is ERROR (printed on stderr).
 * Not reproduced (ycsbctl never sets them, so they are refused in init): several ';'-separated
 * db.url shards, jdbc.autocommit=false, db.batchsize and jdbc.batchupdateapi; nor the SQL Server and
 * Phoenix flavours.
 */
package ycsbctl.interop;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

public class JdbcTwinDB extends DB {
  private static final String KEY = "YCSB_KEY";
  private static final String[] REFUSED = {"db.batchsize", "jdbc.batchupdateapi"};

  private Connection conn;
  private final Map<String, PreparedStatement> prepared = new HashMap<>();

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    String url = p.getProperty("db.url", "");
    for (String name : REFUSED) {
      if (p.getProperty(name) != null) {
        throw new DBException(name + " is not reproduced by this twin of the jdbc binding");
      }
    }
    if (url.contains(";") || !Boolean.parseBoolean(p.getProperty("jdbc.autocommit", "true"))) {
      throw new DBException("shards in db.url and jdbc.autocommit=false are not reproduced by this twin");
    }
    try {
      String driver = p.getProperty("db.driver");
      if (driver != null) {
        Class.forName(driver);
      }
      conn = DriverManager.getConnection(url, p.getProperty("db.user", ""), p.getProperty("db.passwd", ""));
      conn.setAutoCommit(true);
    } catch (ClassNotFoundException | SQLException e) {
      System.err.println("cannot connect to " + url + ": " + e);
      throw new DBException(e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    try {
      for (PreparedStatement s : prepared.values()) {
        s.close();
      }
      if (conn != null) {
        conn.close();
      }
    } catch (SQLException e) {
      throw new DBException(e);
    }
  }

  /** The statement of this SQL text, prepared on first use. */
  private PreparedStatement statement(String sql) throws SQLException {
    PreparedStatement s = prepared.get(sql);
    if (s == null) {
      s = conn.prepareStatement(sql);
      prepared.put(sql, s);
    }
    return s;
  }

  private static HashMap<String, ByteIterator> fieldsOf(ResultSet row, Set<String> fields) throws SQLException {
    HashMap<String, ByteIterator> out = new HashMap<>();
    for (String field : fields) {
      out.put(field, new StringByteIterator(row.getString(field)));
    }
    return out;
  }

  private static Status failed(String what, String table, SQLException e) {
    System.err.println(what + " on " + table + " failed: " + e);
    return Status.ERROR;
  }

  private static Status oneRow(int changed) {
    return changed == 1 ? Status.OK : Status.UNEXPECTED_STATE;
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      PreparedStatement s = statement("SELECT * FROM " + table + " WHERE " + KEY + " = ?");
      s.setString(1, key);
      try (ResultSet rows = s.executeQuery()) {
        if (!rows.next()) {
          return Status.NOT_FOUND;
        }
        if (result != null && fields != null) {
          result.putAll(fieldsOf(rows, fields));
        }
        return Status.OK;
      }
    } catch (SQLException e) {
      return failed("read", table, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                     Vector<HashMap<String, ByteIterator>> result) {
    try {
      PreparedStatement s = statement("SELECT * FROM " + table + " WHERE " + KEY + " >= ? ORDER BY " + KEY
          + " LIMIT ?");
      s.setString(1, startkey);
      s.setInt(2, recordcount);
      try (ResultSet rows = s.executeQuery()) {
        for (int taken = 0; taken < recordcount && rows.next(); taken++) {
          if (result != null && fields != null) {
            result.add(fieldsOf(rows, fields));
          }
        }
      }
      return Status.OK;
    } catch (SQLException e) {
      return failed("scan", table, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    List<String> names = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      names.add(e.getKey() + "=?");
      texts.add(e.getValue().toString());
    }
    try {
      PreparedStatement s = statement("UPDATE " + table + " SET " + String.join(", ", names) + " WHERE " + KEY
          + " = ?");
      int i = 1;
      for (String text : texts) {
        s.setString(i++, text);
      }
      s.setString(i, key);
      return oneRow(s.executeUpdate());
    } catch (SQLException e) {
      return failed("update", table, e);
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    StringBuilder columns = new StringBuilder(KEY);
    StringBuilder marks = new StringBuilder("?");
    List<String> texts = new ArrayList<>();
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      columns.append(',').append(e.getKey());
      marks.append(",?");
      texts.add(e.getValue().toString());
    }
    try {
      PreparedStatement s = statement("INSERT INTO " + table + " (" + columns + ") VALUES(" + marks + ")");
      s.setString(1, key);
      int i = 2;
      for (String text : texts) {
        s.setString(i++, text);
      }
      return oneRow(s.executeUpdate());
    } catch (SQLException e) {
      return failed("insert", table, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      PreparedStatement s = statement("DELETE FROM " + table + " WHERE " + KEY + " = ?");
      s.setString(1, key);
      return oneRow(s.executeUpdate());
    } catch (SQLException e) {
      return failed("delete", table, e);
    }
  }
}
